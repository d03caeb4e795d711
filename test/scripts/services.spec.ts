import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Services from '../../scripts/lib/services';

// The lock file is chosen when the module loads: a private one, so this never waits for (or
// takes over from) a real start of the services on this machine.
const dir = mkdtempSync(join(tmpdir(), 'flowgate-services-spec-'));
const lockFile = join(dir, 'services.lock');
process.env.FLOWGATE_SERVICES_LOCK = lockFile;
const services = require('../../scripts/lib/services') as typeof Services;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// test/unit-setup.js points every address at 127.0.0.1:9, where nothing listens.
describe('ensureServices (scripts/lib/services) should', () => {
  it('fail with one line naming the service, its address and the variable to fix when it must not start anything', async () => {
    const check = { manage: false, quiet: true };
    await expect(services.ensureServices({ ...check, postgres: true })).rejects.toThrow(
      'PostgreSQL is not reachable at 127.0.0.1:9 — start it or fix DATABASE_URL (FLOWGATE_MANAGE_SERVICES=false: the scripts start nothing)',
    );
    await expect(services.ensureServices({ ...check, redis: true })).rejects.toThrow('Redis is not reachable at 127.0.0.1:9 — start it or fix REDIS_URL');
    await expect(services.ensureServices({ ...check, kafka: true })).rejects.toThrow('Kafka is not reachable at 127.0.0.1:9 — start it or fix KAFKA_BROKERS');
    await expect(services.ensureServices({ ...check, redis: true })).rejects.toBeInstanceOf(services.ServiceError);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('read FLOWGATE_MANAGE_SERVICES=false from the environment it is given', async () => {
    const env = { FLOWGATE_MANAGE_SERVICES: 'false', REDIS_URL: 'redis://127.0.0.1:9' };
    await expect(services.ensureServices({ redis: true, quiet: true, env })).rejects.toThrow('(FLOWGATE_MANAGE_SERVICES=false: the scripts start nothing)');
  });

  it('never try to start a service at an address that is not this machine', async () => {
    const error = services.ensureServices({ postgres: true, quiet: true, databaseUrl: 'postgresql://postgres@127.0.0.2:9/flowgate' });
    await expect(error).rejects.toThrow('PostgreSQL is not reachable at 127.0.0.2:9 — start it or fix DATABASE_URL');
    await expect(error).rejects.not.toThrow('FLOWGATE_MANAGE_SERVICES');
    expect(existsSync(lockFile)).toBe(false);
  });

  it('say which value is not a URL, with an example of one', async () => {
    await expect(services.ensureServices({ redis: true, quiet: true, redisUrl: 'localhost' })).rejects.toThrow(`not a URL: "localhost" (e.g. ${services.DEFAULTS.redisUrl})`);
  });

  it('resolve the addresses from the options, else the environment given, else the defaults, having started nothing', async () => {
    const result = await services.ensureServices({ env: { REDIS_URL: 'redis://cache:6379' }, kafkaBrokers: 'kafka:9092' });
    expect(result).toEqual({ databaseUrl: services.DEFAULTS.databaseUrl, redisUrl: 'redis://cache:6379', kafkaBrokers: 'kafka:9092', started: [] });
  });
});

describe('the request-log topics should', () => {
  it('follow KAFKA_LOG_TOPIC, KAFKA_LOG_DLQ_TOPIC and LOG_INGEST_TOPIC_PARTITIONS', () => {
    expect(services.requestLogTopics({})).toEqual([
      { topic: 'flowgate.request-logs', numPartitions: 6 },
      { topic: 'flowgate.request-logs.dlq', numPartitions: 1 },
    ]);
    expect(services.requestLogTopics({ KAFKA_LOG_TOPIC: 'logs', KAFKA_LOG_DLQ_TOPIC: 'logs.dlq', LOG_INGEST_TOPIC_PARTITIONS: '3' })).toEqual([
      { topic: 'logs', numPartitions: 3 },
      { topic: 'logs.dlq', numPartitions: 1 },
    ]);
  });
});

describe('withLock should', () => {
  it('let one holder in at a time, and release the lock after each', async () => {
    const order: string[] = [];
    const holder = (name: string) => async () => {
      order.push(`${name} in`);
      await new Promise((resolve) => setImmediate(resolve));
      order.push(`${name} out`);
      return name;
    };
    await expect(Promise.all([services.withLock(holder('a')), services.withLock(holder('b'))])).resolves.toEqual(['a', 'b']);
    expect(order).toEqual(['a in', 'a out', 'b in', 'b out']);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('take over a lock whose holder has died', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(lockFile, dead);
    await expect(services.withLock(() => 'taken over')).resolves.toBe('taken over');
    expect(existsSync(lockFile)).toBe(false);
  });

  it('release the lock when the holder throws', async () => {
    await expect(services.withLock(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(lockFile)).toBe(false);
  });
});
