import type { PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { call, publishedRoute, respond, type TestKey, TestPublisher, waitFor } from '@flowgate/testing';

/** HEAD answers as GET without a body; a plain OPTIONS says what a path serves. */
describe('gateway: HEAD and OPTIONS (real Redis and engine)', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let project: PublishedProject;
  let locked: PublishedProject;
  let host: string;
  let lockedHost: string;
  let limited: TestKey;
  const logged: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    project = publisher.newProject([
      publishedRoute({
        path: '/hello',
        query_params: [{ key: 'name', default: 'world' }],
        blocks: [respond({ message: 'Hello {params.name}', method: '{request.method}' }, 201)],
      }),
      publishedRoute({ path: '/hello', method: 'DELETE', blocks: [respond({ deleted: true })] }),
      publishedRoute({ path: '/orders', method: 'POST', blocks: [respond({ created: true }, 201)] }),
      publishedRoute({ path: '/mine', auth: 'user', blocks: [respond({ mine: true })] }),
    ]);
    locked = publisher.newProject([publishedRoute({ path: '/private', blocks: [respond({ ok: true })] })], { require_auth: true });
    await publisher.publish(project);
    await publisher.publish(locked);
    limited = await publisher.createKey(project.id, { ratelimit_min: 2 });
    host = `${project.subdomain}.localhost`;
    lockedHost = `${locked.subdomain}.localhost`;
    gateway = await startGateway(
      {},
      {
        logSender: {
          send: async (events: string[]) => {
            for (const event of events) logged.push(JSON.parse(event) as Record<string, unknown>);
          },
          close: async () => undefined,
        },
      },
    );
  });

  afterAll(async () => {
    await gateway?.close();
    await publisher.cleanup();
    redis.disconnect();
  });

  it('answers HEAD on a GET endpoint with the GET status and headers, no body, and logs it as HEAD', async () => {
    const get = await call(gateway.url, host, '/hello?name=Ada');
    const head = await call(gateway.url, host, '/api/hello?name=Ada', { method: 'HEAD' });
    expect(get.json).toEqual({ message: 'Hello Ada', method: 'GET' });
    expect({ status: head.status, text: head.text }).toEqual({ status: 201, text: '' });
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    // The flow ran as for GET: the same body length is announced.
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    await waitFor(() => logged.some((event) => event.method === 'HEAD' && event.path === '/api/hello'), 'the HEAD request to be logged');
    const headEvent = logged.find((event) => event.method === 'HEAD');
    expect(headEvent).toMatchObject({ status: 201, project_id: project.id });
    // No body was sent: the details say so.
    expect(JSON.parse(headEvent!.details as string)).toMatchObject({ response_bytes: 0 });
  });

  it('counts HEAD against the key like GET', async () => {
    const first = await call(gateway.url, host, '/mine', { method: 'HEAD', key: limited.key });
    const second = await call(gateway.url, host, '/mine', { key: limited.key });
    const third = await call(gateway.url, host, '/mine', { method: 'HEAD', key: limited.key });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
    expect(first.headers['ratelimit-remaining']).toBe('1');
    expect(third.text).toBe('');
  });

  it('answers HEAD where only other methods are served with 405 and an Allow listing them', async () => {
    const res = await call(gateway.url, host, '/orders', { method: 'HEAD' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
  });

  it('answers a plain OPTIONS with 204 and Allow for a known path, 404 for an unknown one', async () => {
    const hello = await call(gateway.url, host, '/api/hello', { method: 'OPTIONS' });
    expect({ status: hello.status, text: hello.text, allow: hello.headers.allow }).toEqual({ status: 204, text: '', allow: 'GET, HEAD, DELETE, OPTIONS' });
    const orders = await call(gateway.url, host, '/orders/', { method: 'OPTIONS' });
    expect(orders.headers.allow).toBe('POST, OPTIONS');
    const admin = await call(gateway.url, host, '/admin/api-keys', { method: 'OPTIONS' });
    expect({ status: admin.status, allow: admin.headers.allow }).toEqual({ status: 204, allow: 'POST, OPTIONS' });
    const unknown = await call(gateway.url, host, '/nowhere', { method: 'OPTIONS' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ success: false, code: 'endpoint_not_found' });
  });

  it('answers headers over the limit with 431 headers_too_large, a code of the one error table', async () => {
    const res = await call(gateway.url, host, '/hello', { headers: { 'x-big': 'a'.repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(res.json).toEqual({ success: false, code: 'headers_too_large', message: 'Request headers are too large' });
  });

  it('keeps the paths of a Require Authentication project hidden from OPTIONS without a key', async () => {
    const hidden = await call(gateway.url, lockedHost, '/private', { method: 'OPTIONS' });
    expect(hidden.status).toBe(401);
    const key = await publisher.createKey(locked.id);
    const shown = await call(gateway.url, lockedHost, '/private', { method: 'OPTIONS', key: key.key });
    expect({ status: shown.status, allow: shown.headers.allow }).toEqual({ status: 204, allow: 'GET, HEAD, OPTIONS' });
  });
});
