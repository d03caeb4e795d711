import type { PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import http from 'node:http';
import net from 'node:net';
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { call, publishedRoute, respond, TestPublisher } from '@flowgate/testing';

describe('gateway: routing, bodies and flows (real Redis, Kafka and engine)', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let project: PublishedProject;
  let host: string;

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    project = publisher.newProject([
      publishedRoute({
        path: '/hello',
        query_params: [
          { key: 'name', default: 'world' },
          { key: 'lang', default: null },
        ],
        blocks: [
          { type: 'set_variable', config: { name: 'greeting', value: 'Hello {params.name}' } },
          respond({ message: '{local.greeting}', lang: '{params.lang}' }),
        ],
      }),
      publishedRoute({
        path: '/hello',
        method: 'DELETE',
        blocks: [respond({ deleted: true })],
      }),
      publishedRoute({
        path: '/echo',
        method: 'POST',
        blocks: [respond({ got: '{request.body}', name: '{body.name}', agent: '{request.headers.x-test}' }, 201)],
      }),
      publishedRoute({ path: '/echo', method: 'PUT', blocks: [respond({ put: '{body.a}' })] }),
      publishedRoute({ path: '/silent', blocks: [{ type: 'set_variable', config: { name: 'x', value: '1' } }] }),
      publishedRoute({
        path: '/teapot',
        blocks: [{ type: 'return_error', config: { status: 418, message: 'No coffee here' } }],
      }),
      publishedRoute({
        path: '/shout',
        blocks: [
          { type: 'set_variable', config: { name: 'word', value: 'hello {params.w}' } },
          { type: 'manipulate_text', config: { input: '{local.word}', operation: 'uppercase', ref: 'loud' } },
          respond({ result: '{result.loud}' }),
        ],
        query_params: [{ key: 'w', default: 'there' }],
      }),
    ]);
    await publisher.publish(project);
    host = `${project.subdomain}.localhost:8080`;
    gateway = await startGateway({ GATEWAY_MAX_BODY_BYTES: '1024' });
  });

  afterAll(async () => {
    await gateway?.close();
    await publisher.cleanup();
    redis.disconnect();
  });

  it('serves an endpoint at /api/<path> and at /<path>, with trailing slash', async () => {
    for (const path of ['/api/hello', '/hello', '/hello/', '/api/hello/']) {
      const res = await call(gateway.url, host, path);
      expect({ path, status: res.status, body: res.json }).toEqual({ path, status: 200, body: { message: 'Hello world', lang: null } });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('resolves the project case-insensitively, with or without a port', async () => {
    for (const h of [host.toUpperCase(), project.subdomain + '.LOCALHOST', `${project.subdomain}.localhost:1234`]) {
      expect((await call(gateway.url, h, '/hello')).status).toBe(200);
    }
  });

  it('passes configured query parameters and ignores others', async () => {
    const res = await call(gateway.url, host, '/hello?name=Ada&lang=en&evil=1');
    expect(res.json).toEqual({ message: 'Hello Ada', lang: 'en' });
  });

  it('runs the three-block flow of the benchmark', async () => {
    const res = await call(gateway.url, host, '/api/shout?w=flowgate');
    expect(res.json).toEqual({ result: 'HELLO FLOWGATE' });
  });

  it('answers 404 project_not_found for unknown or foreign hosts', async () => {
    for (const h of ['nobody-here-xyz.localhost:8080', 'localhost:8080', '127.0.0.1:8080', `${project.subdomain}.example.com`]) {
      const res = await call(gateway.url, h, '/hello');
      expect({ h, status: res.status, body: res.json }).toEqual({
        h,
        status: 404,
        body: { success: false, code: 'project_not_found', message: expect.any(String) },
      });
    }
  });

  it('answers 404 endpoint_not_found for unknown paths', async () => {
    for (const path of ['/nope', '/api/nope', '/api', '/', '/admin/unknown', '/HELLO']) {
      const res = await call(gateway.url, host, path);
      expect({ path, status: res.status, code: (res.json as { code: string }).code }).toEqual({
        path,
        status: 404,
        code: 'endpoint_not_found',
      });
    }
  });

  it('answers 405 with Allow for a method the path does not serve', async () => {
    const res = await call(gateway.url, host, '/hello', { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, DELETE, OPTIONS');
    expect(res.json).toMatchObject({ success: false, code: 'method_not_allowed' });
    const patch = await call(gateway.url, host, '/echo', { method: 'PATCH' });
    expect(patch.headers.allow).toBe('POST, PUT, OPTIONS');
  });

  it('parses JSON and form bodies and exposes headers', async () => {
    const json = await call(gateway.url, host, '/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test': 'jest' },
      body: JSON.stringify({ name: 'Ada', n: 1 }),
    });
    expect(json.status).toBe(201);
    expect(json.json).toEqual({ got: { name: 'Ada', n: 1 }, name: 'Ada', agent: 'jest' });
    const form = await call(gateway.url, host, '/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Grace+Hopper&tag=a&tag=b',
    });
    expect(form.json).toEqual({ got: { name: 'Grace Hopper', tag: ['a', 'b'] }, name: 'Grace Hopper', agent: null });
    const put = await call(gateway.url, host, '/echo', { method: 'PUT', body: '{"a":[1,2]}' });
    expect(put.json).toEqual({ put: [1, 2] });
  });

  it('ignores bodies of GET and DELETE', async () => {
    const json = { 'content-type': 'application/json' };
    const get = await call(gateway.url, host, '/hello', { body: 'not json at all', headers: { ...json, 'content-length': '15' } });
    expect(get.status).toBe(200);
    const del = await call(gateway.url, host, '/hello', { method: 'DELETE', body: '{{{', headers: { ...json, 'content-length': '3' } });
    expect(del.json).toEqual({ deleted: true });
  });

  it('answers 400 invalid_json for malformed JSON and 415 for unsupported media types', async () => {
    const bad = await call(gateway.url, host, '/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ success: false, code: 'invalid_json', message: expect.any(String) });
    const multipart = await call(gateway.url, host, '/echo', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x--',
    });
    expect(multipart.status).toBe(415);
  });

  it('answers 413 payload_too_large above GATEWAY_MAX_BODY_BYTES, declared or streamed', async () => {
    const declared = await call(gateway.url, host, '/echo', { method: 'POST', body: JSON.stringify({ a: 'x'.repeat(2000) }) });
    expect(declared.status).toBe(413);
    expect(declared.json).toMatchObject({ success: false, code: 'payload_too_large' });
    const streamed = await call(gateway.url, host, '/echo', {
      method: 'POST',
      headers: { 'transfer-encoding': 'chunked' },
      body: JSON.stringify({ a: 'y'.repeat(5000) }),
    });
    expect(streamed.status).toBe(413);
    const fits = await call(gateway.url, host, '/echo', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(900) }) });
    expect(fits.status).toBe(201);
  });

  it('answers 200 {} when the flow ends without Respond', async () => {
    const res = await call(gateway.url, host, '/silent');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({});
  });

  it('turns a Return Error block into the error body with its status', async () => {
    const res = await call(gateway.url, host, '/teapot');
    expect(res.status).toBe(418);
    expect(res.json).toMatchObject({ success: false, message: 'No coffee here' });
    expect(typeof (res.json as { code: unknown }).code).toBe('string');
  });

  it('answers /_healthz, /_readyz and /_metrics on any host', async () => {
    for (const h of ['whatever:1', host]) {
      expect((await call(gateway.url, h, '/_healthz')).json).toEqual({ status: 'ok' });
      expect((await call(gateway.url, h, '/_readyz')).json).toMatchObject({ status: 'ready', redis: 'up' });
    }
    const metrics = await call(gateway.url, 'x', '/_metrics');
    expect(metrics.status).toBe(200);
    for (const name of [
      'flowgate_gateway_requests_total{status="200"}',
      'flowgate_gateway_request_duration_seconds_bucket',
      'flowgate_gateway_rate_limited_total',
      'flowgate_gateway_log_buffer_depth',
      'flowgate_gateway_log_events_dropped',
      'flowgate_gateway_config_cache_lookups_total{cache="project",result="hit"}',
      'flowgate_gateway_config_cache_lookups_total{cache="subdomain",result="miss"}',
    ]) {
      expect(metrics.text).toContain(name);
    }
  });

  it('gives each of many concurrent requests on shared keep-alive connections its own answer', async () => {
    // Answers of one event-loop turn are written together (gateway-response.ts): none may be
    // swapped, lost or mixed with an error answer of the same turn.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port: gateway.port, path, headers: { host }, agent }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
      });
    try {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 10 === 9 ? get(`/api/nowhere-${i}`) : get(`/api/hello?name=caller${i}`))),
      );
      answers.forEach((answer, i) => {
        if (i % 10 === 9) {
          expect(answer.status).toBe(404);
          expect(JSON.parse(answer.body)).toMatchObject({ code: 'endpoint_not_found', message: `No endpoint at /api/nowhere-${i}` });
        } else {
          expect(answer.status).toBe(200);
          expect(JSON.parse(answer.body)).toEqual({ message: `Hello caller${i}`, lang: null });
        }
      });
    } finally {
      agent.destroy();
    }
  });

  it('answers pipelined requests on one connection in order', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(gateway.port, '127.0.0.1', () => {
        const names = ['a', 'b', 'c'].map((name) => `GET /api/hello?name=${name} HTTP/1.1\r\nHost: ${host}\r\n\r\n`).join('');
        socket.write(`${names}GET /api/nope HTTP/1.1\r\nHost: ${host}\r\n\r\nGET /hello?name=last HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    const answers = raw.split('HTTP/1.1 ').slice(1).map((answer) => [answer.slice(0, 3), answer.slice(answer.indexOf('\r\n\r\n') + 4)]);
    expect(answers.map(([status]) => status)).toEqual(['200', '200', '200', '404', '200']);
    expect(answers.map(([, body]) => JSON.parse(body!).message)).toEqual(['Hello a', 'Hello b', 'Hello c', 'No endpoint at /api/nope', 'Hello last']);
  });

  it('answers garbage on the socket with a JSON 400 and keeps serving', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(gateway.port, '127.0.0.1', () => socket.write('THIS IS NOT HTTP\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toContain('"code":"invalid_request"');
    expect((await call(gateway.url, host, '/hello')).status).toBe(200);
  });

  it('survives a client that sends half a body and disappears', async () => {
    await new Promise<void>((resolve) => {
      const socket = net.connect(gateway.port, '127.0.0.1', () => {
        socket.write(`POST /echo HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 100\r\n\r\n{"a":`);
        setImmediate(() => {
          socket.destroy();
          resolve();
        });
      });
    });
    expect((await call(gateway.url, host, '/hello')).status).toBe(200);
  });
});
