import { Redis } from 'ioredis';
import { PrivateRedis, waitFor } from '@flowgate/testing';
import { KeyCheckConnection, KeyCheckUnavailable } from './key-check-connection';
import { setTimeout as sleep } from 'node:timers/promises';

/** Counts calls per key, so a reply shows the script really ran in Redis (and in which order). */
const LUA = "return {KEYS[1], ARGV[1], redis.call('INCR', KEYS[1])}";

const BUSY_FOR_THREE_SECONDS = `
  local started = redis.call('TIME')
  repeat
    local now = redis.call('TIME')
  until (now[1] - started[1]) * 1000000 + (now[2] - started[2]) > 3000000`;

/** Redis's count of socket reads it processed, all clients together. */
async function readsProcessed(redis: Redis): Promise<number> {
  return Number(/total_reads_processed:(\d+)/.exec(await redis.info('stats'))![1]);
}

describe('KeyCheckConnection (the key check connection to a real redis-server)', () => {
  let server: PrivateRedis;
  let admin: Redis;
  const connections: KeyCheckConnection[] = [];

  const open = async (url = server.url, timeoutMs = 2000): Promise<KeyCheckConnection> => {
    const connection = new KeyCheckConnection({ url, lua: LUA, timeoutMs, name: 'key-check-test' });
    connections.push(connection);
    await connection.connect();
    return connection;
  };

  beforeEach(async () => {
    server = await PrivateRedis.start();
    admin = new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  });

  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.close();
    admin.disconnect();
    await server.down();
  });

  it('answers every call of one event-loop turn in order, from one pipelined write', async () => {
    const connection = await open();
    const readsBefore = await readsProcessed(admin);
    const replies = await Promise.all(Array.from({ length: 500 }, (_, i) => connection.evalScript(['counter'], [`call-${i}`])));
    expect(replies.map((reply) => (reply as [string, string, number])[1])).toEqual(Array.from({ length: 500 }, (_, i) => `call-${i}`));
    expect(replies.map((reply) => (reply as [string, string, number])[2])).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    // One write of ~30 KB reaches Redis in a few reads (one per call would be 500); the INFO
    // calls themselves count one each.
    expect((await readsProcessed(admin)) - readsBefore).toBeLessThan(20);
    expect(await admin.client('LIST')).toContain('name=key-check-test');
  });

  it('still answers after Redis lost the script (SCRIPT FLUSH): the call is sent again with the script', async () => {
    const connection = await open();
    await connection.evalScript(['k'], ['a']);
    await admin.script('FLUSH');
    await expect(connection.evalScript(['k'], ['b'])).resolves.toEqual(['k', 'b', 2]);
    await expect(connection.evalScript(['k'], ['c'])).resolves.toEqual(['k', 'c', 3]);
  });

  it('passes Redis errors of a call to that call alone', async () => {
    const connection = await open();
    await admin.set('not-a-counter', 'text');
    const [failed, fine] = await Promise.allSettled([connection.evalScript(['not-a-counter'], ['x']), connection.evalScript(['counter'], ['y'])]);
    expect(failed.status).toBe('rejected');
    expect(fine).toEqual({ status: 'fulfilled', value: ['counter', 'y', 1] });
  });

  it('authenticates and selects the database of the URL', async () => {
    await admin.config('SET', 'requirepass', 's3cret pass');
    const connection = await open(`redis://:${encodeURIComponent('s3cret pass')}@127.0.0.1:${server.port}/3`);
    await connection.evalScript(['in-db-3'], ['x']);
    const checker = new Redis(`redis://:${encodeURIComponent('s3cret pass')}@127.0.0.1:${server.port}/3`);
    try {
      expect(await checker.get('in-db-3')).toBe('1');
      expect(await checker.select(0).then(() => checker.exists('in-db-3'))).toBe(0);
    } finally {
      checker.disconnect();
    }
  });

  it('refuses a wrong password at connect', async () => {
    await admin.config('SET', 'requirepass', 'right');
    const connection = new KeyCheckConnection({ url: `redis://:wrong@127.0.0.1:${server.port}`, lua: LUA, timeoutMs: 2000, name: 'key-check-test' });
    connections.push(connection);
    await expect(connection.connect()).rejects.toThrow(/WRONGPASS|invalid password/i);
  });

  it('rejects at once while Redis is away, and serves again once it is back', async () => {
    // A call timeout far beyond the test's: the rejection cannot be the timeout's.
    const connection = await open(server.url, 600_000);
    await server.down();
    await waitFor(() => !connection.isReady, 'the connection to notice Redis left');
    const away = connection.evalScript(['k'], ['x']);
    await expect(away).rejects.toBeInstanceOf(KeyCheckUnavailable);
    await expect(away).rejects.toThrow('Redis connection not ready');
    await server.up();
    const reply = await waitFor(() => connection.evalScript(['k'], ['back']), 'a call to succeed after Redis restarted', 20_000);
    expect(reply).toEqual(['k', 'back', 1]);
  });

  it('fails calls Redis does not answer in time, then reconnects', async () => {
    const connection = await open(server.url, 300);
    const blocker = new Redis(server.url);
    try {
      // Redis runs one script at a time: this one keeps it busy for three seconds.
      let blockerDone = false;
      void blocker.eval(BUSY_FOR_THREE_SECONDS, 0).then(
        () => (blockerDone = true),
        () => (blockerDone = true),
      );
      await sleep(50);
      await expect(connection.evalScript(['k'], ['slow'])).rejects.toThrow(/did not answer within 300 ms/);
      expect(blockerDone).toBe(false); // failed at its own timeout, not when Redis got free
      const reply = await waitFor(() => connection.evalScript(['k'], ['after']), 'a call to succeed once Redis answers again', 20_000);
      // The slow call may or may not have run in Redis before its connection was dropped.
      expect((reply as [string, string, number]).slice(0, 2)).toEqual(['k', 'after']);
    } finally {
      blocker.disconnect();
    }
  });

  it('rejects pending and later calls once closed', async () => {
    const connection = await open();
    const pending = connection.evalScript(['k'], ['x']);
    connection.close();
    await expect(pending).rejects.toBeInstanceOf(KeyCheckUnavailable);
    await expect(connection.evalScript(['k'], ['y'])).rejects.toBeInstanceOf(KeyCheckUnavailable);
  });
});
