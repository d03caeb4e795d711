import { MAX_JSON_DEPTH, type PublishedProject } from '@flowgate/contracts';
import net from 'node:net';
import { Redis } from 'ioredis';
import { HEADERS_TIMEOUT_MS, TIMEOUT_CHECK_MS, type Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { call, parseRawAnswer, publishedRoute, rawExchange, respond, TestPublisher } from '@flowgate/testing';

/** Requests an attacker sends to find where the gateway and node:http disagree. */
describe('gateway: hostile request shapes get a JSON error, never a 500 or silence', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let projectA: PublishedProject;
  let projectB: PublishedProject;
  const hostOf = (project: PublishedProject) => `${project.subdomain}.localhost`;

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    const echo = publishedRoute({ path: '/echo', method: 'POST', blocks: [respond({ got: '{request.body}' })] });
    projectA = publisher.newProject([echo, publishedRoute({ path: '/who', blocks: [respond({ project: 'A' })] })]);
    projectB = publisher.newProject([publishedRoute({ path: '/who', blocks: [respond({ project: 'B' })] })]);
    await publisher.publish(projectA);
    await publisher.publish(projectB);
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
    await publisher.cleanup();
    redis.disconnect();
  });

  const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  it(`refuses a JSON body nested deeper than ${MAX_JSON_DEPTH} levels with 400 invalid_json, and serves the limit`, async () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 5_000, 100_000]) {
      const res = await call(gateway.url, hostOf(projectA), '/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: nested(depth) });
      expect({ depth, status: res.status, body: res.json }).toEqual({
        depth,
        status: 400,
        body: { success: false, code: 'invalid_json', message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH} levels`) },
      });
    }
    const atLimit = await call(gateway.url, hostOf(projectA), '/echo', { method: 'POST', body: nested(MAX_JSON_DEPTH) });
    expect(atLimit.status).toBe(200);
    expect(JSON.stringify(atLimit.json)).toBe(`{"got":${nested(MAX_JSON_DEPTH)}}`);
  });

  it('answers a body it will not read (over the limit, or sent to a path that takes none) and closes the connection instead of reading it', async () => {
    const MiB2 = 2 * 1024 * 1024;
    const kib = 'x'.repeat(1024);
    // Each sends its headers and the first KiB of 2 MiB, then waits: the answer comes, and the gateway closes.
    const declared = await rawExchange(gateway.port, `POST /echo HTTP/1.1\r\nHost: ${hostOf(projectA)}\r\nContent-Length: ${MiB2}\r\n\r\n${kib}`);
    expect(parseRawAnswer(declared)).toMatchObject({ status: 413, json: { success: false, code: 'payload_too_large' } });
    expect(parseRawAnswer(declared).headers).toContain('connection: close');
    const chunkedToGet = await rawExchange(gateway.port, `GET /who HTTP/1.1\r\nHost: ${hostOf(projectA)}\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n${kib}\r\n`);
    expect(parseRawAnswer(chunkedToGet)).toMatchObject({ status: 200, json: { project: 'A' } });
    expect(parseRawAnswer(chunkedToGet).headers).toContain('connection: close');
    const unknownPath = await rawExchange(gateway.port, `POST /nowhere HTTP/1.1\r\nHost: ${hostOf(projectA)}\r\nContent-Length: ${MiB2}\r\n\r\n${kib}`);
    expect(parseRawAnswer(unknownPath)).toMatchObject({ status: 404, json: { code: 'endpoint_not_found' } });
    // A body read to its end keeps the connection for the next request.
    const body = '{"a":1}';
    const two = await rawExchange(
      gateway.port,
      `POST /echo HTTP/1.1\r\nHost: ${hostOf(projectA)}\r\nContent-Length: ${body.length}\r\n\r\n${body}GET /who HTTP/1.1\r\nHost: ${hostOf(projectA)}\r\nConnection: close\r\n\r\n`,
    );
    expect(two.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
  });

  it('answers two Host headers with 400, whichever project comes first', async () => {
    for (const [first, second] of [
      [projectA, projectB],
      [projectB, projectA],
    ]) {
      const raw = await rawExchange(gateway.port, `GET /who HTTP/1.1\r\nHost: ${hostOf(first!)}\r\nhost: ${hostOf(second!)}\r\nConnection: close\r\n\r\n`);
      expect(parseRawAnswer(raw)).toMatchObject({ status: 400, json: { success: false, code: 'invalid_request', message: 'Send exactly one Host header' } });
    }
    const one = await rawExchange(gateway.port, `GET /who HTTP/1.1\r\nHost: ${hostOf(projectB)}\r\nConnection: close\r\n\r\n`);
    expect(parseRawAnswer(one)).toMatchObject({ status: 200, json: { project: 'B' } });
  });

  it('answers a request without Host with the JSON 400 body (HTTP/1.1 and 1.0)', async () => {
    for (const version of ['1.1', '1.0']) {
      const raw = await rawExchange(gateway.port, `GET /who HTTP/${version}\r\nConnection: close\r\n\r\n`);
      expect({ version, ...parseRawAnswer(raw) }).toMatchObject({
        version,
        status: 400,
        headers: expect.stringContaining('content-type: application/json'),
        json: { success: false, code: 'invalid_request', message: 'Send a Host header naming the project' },
      });
    }
  });

  it('answers CONNECT with 405 JSON and an Allow header instead of closing silently, and keeps serving', async () => {
    const raw = await rawExchange(gateway.port, `CONNECT ${hostOf(projectA)}:443 HTTP/1.1\r\nHost: ${hostOf(projectA)}:443\r\n\r\n`);
    const answer = parseRawAnswer(raw);
    expect(answer).toMatchObject({ status: 405, json: { success: false, code: 'method_not_allowed', message: expect.stringContaining('CONNECT') } });
    expect(answer.headers).toContain('allow: get, post, put, patch, delete, options');
    expect((await call(gateway.url, hostOf(projectA), '/who')).json).toEqual({ project: 'A' });
  });
});

describe('gateway: sockets sending their headers slowly', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway?.close());

  /** A socket that sends one byte of its headers every 500 ms and never finishes them; resolves with what it got when the gateway closes it. */
  function slowHeaders(port: number): Promise<{ answer: string; openMs: number }> {
    return new Promise((resolve) => {
      const head = `GET /who HTTP/1.1\r\nHost: slow.localhost\r\nX-Slow: ${'a'.repeat(1000)}`;
      const opened = Date.now();
      let sent = 0;
      let answer = '';
      const socket = net.connect(port, '127.0.0.1');
      const drip = setInterval(() => socket.write(head[sent++ % head.length]!), 500);
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => {
        clearInterval(drip);
        resolve({ answer, openMs: Date.now() - opened });
      });
      // A byte written as the gateway closes fails (EPIPE, ECONNRESET); 'close' follows and resolves.
      socket.on('error', () => clearInterval(drip));
    });
  }

  it(`cuts them at the headers timeout (${HEADERS_TIMEOUT_MS / 1000} s) with 408 request_timeout, whatever they still send`, async () => {
    const sockets = await Promise.all(Array.from({ length: 50 }, () => slowHeaders(gateway.port)));
    for (const { answer, openMs } of sockets) {
      expect(parseRawAnswer(answer)).toMatchObject({ status: 408, json: { success: false, code: 'request_timeout' } });
      // Never before the documented timeout (node checks every TIMEOUT_CHECK_MS; the test's limit below catches "much later").
      expect(openMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - TIMEOUT_CHECK_MS);
    }
  }, HEADERS_TIMEOUT_MS + 10 * TIMEOUT_CHECK_MS);
});
