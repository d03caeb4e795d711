/**
 * For Each, error paths and retries end to end: a real gateway (in process), flows compiled by
 * the real engine and published to Redis, and a stand-in API on 127.0.0.1 that fails before it
 * succeeds. What is asserted is what a caller gets and what the API was asked, never timings.
 */
import type { Gateway } from './gateway';
import { startGateway } from './testing/gateway-harness';
import { call, publishedRoute, sendJson, startStandIn, TestPublisher, type StandIn } from '@flowgate/testing';
import type { PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';

jest.setTimeout(60_000);

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const position = { x: 0, y: 0 };
const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({ id, type, position, config });
const edge = (source: string, target: string, sourceHandle?: string) => ({ id: `${source}-${target}-${sourceHandle ?? ''}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) });

describe('loops, error paths and retries through the gateway (stand-in API on 127.0.0.1)', () => {
  const savedEnv = { ...process.env };
  let api: StandIn;
  /** Failures still to give per item before the stand-in answers. */
  const failuresLeft = new Map<string, number>();
  let redis: Redis;
  let publisher: TestPublisher;
  let project: PublishedProject;
  let gateway: Gateway;

  beforeAll(async () => {
    api = await startStandIn((req, res) => {
      const item = decodeURIComponent((req.url ?? '/').slice('/items/'.length));
      if (item === 'gone') return sendJson(res, 404, { error: 'no such item' });
      const left = failuresLeft.get(item) ?? 0;
      if (left > 0) {
        failuresLeft.set(item, left - 1);
        return sendJson(res, 503, { error: 'busy' }, { 'retry-after': '0' });
      }
      sendJson(res, 200, { name: item.toUpperCase() });
    });
    process.env.FLOWGATE_EGRESS_ALLOW_CIDRS = '127.0.0.0/8';
    process.env.FLOW_MAX_ITERATIONS = '10';
    redis = new Redis(redisUrl);
    publisher = new TestPublisher(redis);
    // For Each item: GET /items/<item> (retried twice on 5xx, failing on 4xx/5xx); collected:
    // the name, or a note from the error path; then Respond with the list.
    const enrich = {
      nodes: [
        node('start', 'start'),
        node('each', 'for_each', { list: '{body.items}', collect: '{local.entry}', concurrency: 3, ref: 'names' }),
        node('get', 'http_request', { name: 'api', url: `${api.url}/items/{local.item}`, fail_on_status: true, retry: { attempts: 2, delay_ms: 50 } }),
        node('ok', 'set_variable', { name: 'entry', value: '{api.body.name}' }),
        node('failed', 'set_variable', { name: 'entry', value: 'missing {local.item} ({api.error.status})' }),
        node('answer', 'respond', { body: { names: '{local.names}' } }),
      ],
      edges: [edge('start', 'each'), edge('each', 'get', 'each'), edge('get', 'ok'), edge('get', 'failed', 'error'), edge('each', 'answer', 'done')],
    };
    const guard = {
      nodes: [
        node('start', 'start'),
        node('each', 'for_each', { list: '{body.items}', ref: 'n' }),
        node('check', 'condition', { left: '{local.item}', operator: 'eq', right: 'stop' }),
        node('stop', 'return_error', { status: 409, message: 'item {local.item_index} says stop', code: 'stopped' }),
        node('answer', 'respond', { body: { n: '{local.n}' } }),
      ],
      edges: [edge('start', 'each'), edge('each', 'check', 'each'), edge('check', 'stop', 'true'), edge('each', 'answer', 'done')],
    };
    project = publisher.newProject([
      publishedRoute({ path: '/enrich', method: 'POST', blocks: [], flow: enrich }),
      publishedRoute({ path: '/guard', method: 'POST', blocks: [], flow: guard }),
    ]);
    await publisher.publish(project);
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
    await publisher?.cleanup();
    redis?.disconnect();
    await api?.close();
    process.env = savedEnv;
  });

  const post = (path: string, body: unknown) =>
    call(gateway.url, `${project.subdomain}.localhost`, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('enriches every item in list order, retrying an API that fails then succeeds, and takes the error path for the rest', async () => {
    failuresLeft.set('b', 2); // succeeds on the third try
    failuresLeft.set('c', 5); // still failing after the two retries
    const before = api.requests.length;
    const response = await post('/enrich', { items: ['a', 'b', 'c', 'gone'] });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ names: ['A', 'B', 'missing c (503)', 'missing gone (404)'] });
    const asked = api.requests.slice(before).map((request) => request.url);
    // a once, b three times, c three times, gone once (a 4xx is never retried).
    expect(asked.filter((url) => url === '/items/b')).toHaveLength(3);
    expect(asked.filter((url) => url === '/items/c')).toHaveLength(3);
    expect(asked.filter((url) => url === '/items/gone')).toHaveLength(1);
    expect(asked).toHaveLength(8);
  });

  it('answers from inside a loop body: Return Error ends the request', async () => {
    const stopped = await post('/guard', { items: ['go', 'stop', 'go'] });
    expect(stopped.status).toBe(409);
    expect(stopped.json).toEqual({ success: false, code: 'stopped', message: 'item 1 says stop' });
    const passed = await post('/guard', { items: ['go', 'go'] });
    expect(passed.json).toEqual({ n: 2 });
  });

  it('stops a run past FLOW_MAX_ITERATIONS with 422 iteration_limit naming the For Each', async () => {
    const ten = await post('/guard', { items: Array.from({ length: 10 }, () => 'go') });
    expect(ten.json).toEqual({ n: 10 });
    const eleven = await post('/guard', { items: Array.from({ length: 11 }, () => 'go') });
    expect(eleven.status).toBe(422);
    expect(eleven.json).toMatchObject({ success: false, code: 'iteration_limit', message: expect.stringContaining('For Each (each)') });
  });

  it('answers 500 flow_error naming the block when List is not a list', async () => {
    const response = await post('/guard', { items: 'not a list' });
    expect(response.status).toBe(500);
    expect(response.json).toMatchObject({ success: false, code: 'flow_error', message: expect.stringContaining('For Each (each): List must give a list') });
  });
});
