import { MAX_JSON_DEPTH, type PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import type { Gateway } from './gateway';
import { startGateway } from './testing/gateway-harness';
import { call, parseRawAnswer, publishedRoute, rawExchange, respond, TestPublisher } from '@flowgate/testing';

/** Requests an attacker sends to find where the gateway and node:http disagree (issue 17 §4). */
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
