import { Redis } from 'ioredis';
import http from 'node:http';
import { startGateway } from './testing/gateway-harness';
import { publishedRoute, respond, startStandIn, TestPublisher } from '@flowgate/testing';
import { setTimeout as sleep } from 'node:timers/promises';

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** Shutdown (SIGTERM → `close()`): callers on open connections are answered, never reset. */
describe('gateway shutdown (real Redis and Kafka)', () => {
  let redis: Redis;
  let publisher: TestPublisher;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
  });
  afterAll(() => redis.quit());

  const get = (port: number, host: string, path: string, agent: http.Agent) =>
    new Promise<Answer>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers: { host }, agent }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
        })
        .on('error', reject);
    });

  it('answers a request sent on an idle keep-alive connection as shutdown begins, with Connection: close', async () => {
    const project = publisher.newProject([publishedRoute({ path: '/hello', blocks: [respond({ hello: 'world' })] })]);
    await publisher.publish(project);
    const host = `${project.subdomain}.localhost`;
    const gateway = await startGateway();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(gateway.port, host, '/api/hello', agent);
      expect(first).toMatchObject({ status: 200, connection: 'keep-alive' });
      // The connection is idle in the agent's pool; the caller sends on it as the gateway stops.
      await new Promise((resolve) => setImmediate(resolve));
      const closed = gateway.close();
      const second = await get(gateway.port, host, '/api/hello', agent);
      expect(second).toEqual({ status: 200, connection: 'close', body: JSON.stringify({ hello: 'world' }) });
      await closed;
    } finally {
      agent.destroy();
      await gateway.close();
    }
  }, 30_000);

  it('lets a request in flight finish before the process stops', async () => {
    let release: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const upstreamReached = new Promise<void>((resolve) => (arrived = resolve));
    const upstream = await startStandIn((_req, res) => {
      arrived();
      release = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"slow":true}');
    });
    const saved = process.env.FLOWGATE_EGRESS_ALLOW_CIDRS;
    process.env.FLOWGATE_EGRESS_ALLOW_CIDRS = '127.0.0.0/8';
    const project = publisher.newProject([
      publishedRoute({
        path: '/slow',
        blocks: [{ type: 'http_request', config: { name: 'up', url: `${upstream.url}/slow`, method: 'GET' } }, respond({ got: '{result.up.body.slow}' })],
      }),
    ]);
    await publisher.publish(project);
    const gateway = await startGateway();
    const agent = new http.Agent({ keepAlive: true });
    try {
      const answer = get(gateway.port, `${project.subdomain}.localhost`, '/api/slow', agent);
      await upstreamReached;
      let stopped = false;
      const closed = gateway.close().then(() => (stopped = true));
      await sleep(50);
      expect(stopped).toBe(false);
      release();
      await expect(answer).resolves.toMatchObject({ status: 200, connection: 'close', body: JSON.stringify({ got: true }) });
      await closed;
    } finally {
      if (saved === undefined) delete process.env.FLOWGATE_EGRESS_ALLOW_CIDRS;
      else process.env.FLOWGATE_EGRESS_ALLOW_CIDRS = saved;
      agent.destroy();
      await gateway.close();
      await upstream.close();
    }
  }, 30_000);
});
