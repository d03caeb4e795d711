// A Workshop test run answers what a live request answers: for every block type, the same flow
// deployed and called through a real gateway gives the same status and body as the test run of
// that flow with the same request (real control plane, real gateway, third parties as stand-ins).
import { EMAIL_QUEUE_NAME } from '@flowgate/integrations';
import { Queue } from 'bullmq';
import { Jimp } from 'jimp';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestAccount, type TestApp } from '../../apps/control-plane/src/testing/test-app';
import type { Gateway } from '../../apps/gateway/src/gateway';
import { startGateway } from '../../apps/gateway/src/testing/gateway-harness';
import { call } from '@flowgate/testing';

// The first runs start worker threads and load the adapters from TypeScript source, on the
// gateway and in the control plane's test-run threads: a busy machine takes far longer than 30 s.
jest.setTimeout(180_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const node = (id: string, type: string, config: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, config });
const chain = (ids: string[]) => ids.slice(1).map((target, i) => ({ id: `e${i}`, source: ids[i]!, target }));
const START = { id: 'start', type: 'start', position: { x: 0, y: 0 } };

interface Sample {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** A row written by a run has an id and times of its own; its values must be identical. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const withoutRowIdentity = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, field: unknown) =>
    key === 'id' && typeof field === 'string' && UUID.test(field) ? '<row id>' : /_at$/.test(key) && typeof field === 'string' && ISO_TIME.test(field) ? '<time>' : field,
  );

/** Image results live at a fresh id per run; everything else must be identical. */
const withoutImageIds = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/\/_images\/[A-Za-z0-9_-]+\.png/g, '/_images/<id>.png'));

describe('test run ≡ live request, for every block type', () => {
  const savedEnv = { ...process.env };
  const queuePrefix = `fgtest-equiv-${randomBytes(4).toString('hex')}`;
  let t: TestApp;
  let owner: TestAccount;
  let gateway: Gateway;
  let stand: http.Server;
  let standUrl: string;
  let project: { id: string; subdomain: string; base_url: string };
  const endpoints = new Map<string, string>();
  let tableId: string;
  /** The rows the table starts with, by name. */
  const seeded = new Map<string, Json>();

  const api = (method: 'post' | 'put', url: string, body?: object) => t.http()[method](url).set(owner.auth).send(body);

  async function deploy(key: string, settings: Json, flow: Json): Promise<void> {
    const created = await api('post', `/v1/projects/${project.id}/endpoints`, { auth: 'none', query_params: [], ...settings, flow }).expect(201);
    await api('post', `/v1/projects/${project.id}/endpoints/${created.body.id}/deploy`).expect(200);
    endpoints.set(key, created.body.id);
  }

  async function live(sample: Sample): Promise<{ status: number; body: unknown; contentType?: string }> {
    const query = sample.query ? `?${new URLSearchParams(sample.query)}` : '';
    const body = sample.body === undefined ? undefined : JSON.stringify(sample.body);
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    const res = await call(gateway.url, new URL(project.base_url).host, `${sample.path}${query}`, { method: sample.method, body, headers });
    return { status: res.status, body: res.json, contentType: res.headers['content-type'] };
  }

  async function tested(key: string, sample: Sample): Promise<{ status: number; body: unknown; contentType: string; trace: Json[] }> {
    const res = await api('post', `/v1/projects/${project.id}/endpoints/${endpoints.get(key)}/test-runs`, {
      request: { method: sample.method, path: sample.path, query: sample.query, body: sample.body },
    }).expect(200);
    return { status: res.body.response.status, body: res.body.response.body, contentType: res.body.response.headers['content-type'], trace: res.body.trace };
  }

  beforeAll(async () => {
    const png = await new Jimp({ width: 2, height: 1, color: 0x336699ff }).getBuffer('image/png');
    stand = http.createServer((req, res) => {
      if (req.url === '/photo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (req.url?.startsWith('/v1/messages')) {
        req.resume();
        return res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'Kind words' }],
            stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ stock: 7, path: req.url }));
    });
    await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
    standUrl = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
    // Both processes read these when they build their ports: the same egress allow-list, model and
    // queue, and the same deadlines — long ones, as this suite compares answers, not speed: the
    // gateway loads its adapters and image threads from TypeScript source on the first request,
    // which a busy machine can take longer than the default 15 s for.
    Object.assign(process.env, {
      FLOWGATE_EGRESS_ALLOW_CIDRS: '127.0.0.0/8',
      ANTHROPIC_BASE_URL: standUrl,
      BULLMQ_PREFIX: queuePrefix,
      FLOW_TIMEOUT_MS: '120000',
      FLOW_WORKER_TASK_MS: '120000',
    });
    t = await startTestApp();
    owner = await t.signup();
    gateway = await startGateway();
    project = await t.createProject(owner, 'Equivalence');
    await api('put', `/v1/projects/${project.id}/integrations/text-generation`, { provider: 'anthropic', api_key: 'sk-ant-equivalence-0001' }).expect(200);
    await api('put', `/v1/projects/${project.id}/integrations/email`, { provider: 'sendgrid', api_key: 'SG.equivalence-0001', verified_domains: ['shop.test'] }).expect(200);

    await deploy('text', { name: 'Text', method: 'GET', path: '/text', query_params: [{ key: 'name', default: 'world' }] }, {
      nodes: [
        START,
        node('v', 'set_variable', { name: 'greeting', value: 'Hello {params.name}' }),
        node('enc', 'encode_text', { input: '{local.greeting}', encoding: 'hex', ref: 'hex' }),
        node('dec', 'decode_text', { input: '{result.hex}', encoding: 'hex', ref: 'plain' }),
        node('up', 'manipulate_text', { input: '{result.plain}', operation: 'split', delimiter: ' ', ref: 'words' }),
        node('rx', 'match_regex', { input: '{result.plain}', pattern: '(?<word>[A-Z][a-z]+)', flags: 'g', ref: 'm' }),
        node('code', 'run_code', { code: 'console.log("counting");\nreturn { count: input.words.length, initials: input.words.map((w) => w[0]).join("") }', inputs: [{ name: 'words', value: '{result.words}' }], ref: 'counted' }),
        node('c', 'condition', { left: '{params.name}', operator: 'eq', right: 'nobody' }),
        node('no', 'return_error', { status: 404, message: 'Nobody to greet' }),
        node('ok', 'respond', { status: 202, body: { hex: '{result.hex}', words: '{result.words}', first: '{result.m.word}', all: '{result.m.matches}', counted: '{result.counted}' } }),
      ],
      edges: [...chain(['start', 'v', 'enc', 'dec', 'up', 'rx', 'code', 'c']), { id: 'ct', source: 'c', target: 'no', sourceHandle: 'true' }, { id: 'cf', source: 'c', target: 'ok', sourceHandle: 'false' }],
    });
    // A function called by an endpoint: Call Function runs the live version live, the draft in a test run (the same here).
    const double = await api('post', `/v1/projects/${project.id}/functions`, {
      name: 'Double',
      inputs: [{ name: 'n', type: 'number', required: true }],
      flow: { nodes: [START, node('ret', 'return_value', { value: { twice: ['{input.n}', '{input.n}'] } })], edges: chain(['start', 'ret']) },
    }).expect(201);
    await api('post', `/v1/projects/${project.id}/functions/${double.body.id}/deploy`).expect(200);
    await deploy('call', { name: 'Call', method: 'GET', path: '/call' }, {
      nodes: [START, node('cf', 'call_function', { function: double.body.id, args: { n: 21 }, ref: 'doubled' }), node('r', 'respond', { body: { doubled: '{result.doubled}' } })],
      edges: chain(['start', 'cf', 'r']),
    });

    await deploy('ports', { name: 'Ports', method: 'POST', path: '/ports' }, {
      nodes: [
        START,
        node('h', 'http_request', { name: 'stock', url: `${standUrl}/stock/{body.item}`, method: 'GET' }),
        node('blocked', 'http_request', { name: 'meta', url: 'http://169.254.169.254/latest/meta-data/', method: 'GET' }),
        node('g', 'generate_text', { prompt: 'Thank {body.who}', ref: 'note' }),
        node('m', 'send_email', { to: 'ops@example.com', from: 'Shop <hi@shop.test>', subject: 'Order {body.item}', body: '{result.note}' }),
        node('i', 'manipulate_image', { image_url: `${standUrl}/photo.png`, operation: 'grayscale', value: 100, ref: 'grey' }),
        node('r', 'respond', { body: { stock: '{stock.body.stock}', status: '{stock.status}', blocked: '{meta.error}', note: '{result.note}', image: '{result.grey}' } }),
      ],
      edges: chain(['start', 'h', 'blocked', 'g', 'm', 'i', 'r']),
    });
    await deploy('broken', { name: 'Broken', method: 'POST', path: '/broken' }, {
      nodes: [START, node('x', 'decode_text', { input: '{body.data}', encoding: 'base64', ref: 'out' }), node('r', 'respond', { body: { out: '{result.out}' } })],
      edges: chain(['start', 'x', 'r']),
    });

    // The five table blocks, on a table of the project (the data database, DATA_DATABASE_URL).
    tableId = (
      await api('post', `/v1/projects/${project.id}/tables`, {
        name: 'parts',
        columns: [
          { name: 'name', type: 'text', required: true, unique: true },
          { name: 'qty', type: 'number' },
        ],
      }).expect(201)
    ).body.id;
    for (const [name, qty] of [['bolt', 40], ['nut', 12], ['gear', 3]] as const)
      seeded.set(name, (await api('post', `/v1/projects/${project.id}/tables/${tableId}/rows`, { values: { name, qty } }).expect(201)).body);
    // Reads: the same rows for both.
    await deploy('read', { name: 'Read', method: 'GET', path: '/parts', query_params: [{ key: 'min', default: '0' }, { key: 'id', default: null }] }, {
      nodes: [
        START,
        node('q', 'query_rows', { table: 'parts', filter: [{ column: 'qty', operator: 'gte', value: '{params.min}' }], sort: { column: 'qty', direction: 'desc' }, limit: 10, ref: 'found' }),
        node('g', 'get_row', { table: 'parts', id: '{params.id}', ref: 'one' }),
        node('r', 'respond', { body: { rows: '{result.found.rows}', count: '{result.found.count}', one: '{result.one}' } }),
      ],
      edges: chain(['start', 'q', 'g', 'r']),
    });
    // Writes: each run inserts its own row, changes it and deletes it again, so the table is as
    // it was after each run and both runs do the same work; only the new row's id and times differ.
    await deploy('write', { name: 'Write', method: 'POST', path: '/parts' }, {
      nodes: [
        START,
        node('ins', 'insert_row', { table: 'parts', values: { name: '{body.name}', qty: '{body.qty}' }, ref: 'made' }),
        node('upd', 'update_rows', { table: 'parts', filter: [{ column: 'id', operator: 'eq', value: '{result.made.id}' }], values: { qty: '{body.more}' }, ref: 'changed' }),
        node('del', 'delete_rows', { table: 'parts', filter: [{ column: 'id', operator: 'eq', value: '{result.made.id}' }], ref: 'gone' }),
        node('after', 'get_row', { table: 'parts', id: '{result.made.id}', ref: 'left' }),
        node('r', 'respond', { status: 201, body: { made: '{result.made}', changed: '{result.changed}', gone: '{result.gone}', left: '{result.left}' } }),
      ],
      edges: chain(['start', 'ins', 'upd', 'del', 'after', 'r']),
    });
    // A loop whose body calls a function (which loops too): For Each, Call Function, Return.
    const fn = await api('post', `/v1/projects/${project.id}/functions`, {
      name: 'Shout',
      inputs: [{ name: 'words', type: 'list', required: true }],
      flow: {
        nodes: [
          START,
          node('each', 'for_each', { list: '{input.words}', item: 'word', collect: '{result.up}', ref: 'loud' }),
          node('up', 'manipulate_text', { input: '{local.word}', operation: 'uppercase', ref: 'up' }),
          node('ret', 'return_value', { value: '{local.loud}' }),
        ],
        edges: [
          { id: 'e0', source: 'start', target: 'each' },
          { id: 'e1', source: 'each', sourceHandle: 'each', target: 'up' },
          { id: 'e2', source: 'each', sourceHandle: 'done', target: 'ret' },
        ],
      },
    }).expect(201);
    await api('post', `/v1/projects/${project.id}/functions/${fn.body.id}/deploy`).expect(200);
    await deploy('loop', { name: 'Loop', method: 'POST', path: '/loop' }, {
      nodes: [
        START,
        node('each', 'for_each', { list: '{body.groups}', item: 'group', collect: '{result.shout}', ref: 'all' }),
        node('call', 'call_function', { function: fn.body.id, args: { words: '{local.group}' }, ref: 'shout' }),
        node('r', 'respond', { body: { all: '{local.all}' } }),
      ],
      edges: [
        { id: 'e0', source: 'start', target: 'each' },
        { id: 'e1', source: 'each', sourceHandle: 'each', target: 'call' },
        { id: 'e2', source: 'each', sourceHandle: 'done', target: 'r' },
      ],
    });
    await deploy('silent', { name: 'Silent', method: 'GET', path: '/silent' }, { nodes: [START, node('v', 'set_variable', { name: 'x', value: '1' })], edges: chain(['start', 'v']) });
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    await t?.close();
    const queue = new Queue(EMAIL_QUEUE_NAME, { connection: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }, prefix: queuePrefix });
    await queue.obliterate({ force: true });
    await queue.close();
    await new Promise((resolve) => stand?.close(resolve));
    process.env = savedEnv;
  });

  /** Block types seen in the test runs' traces. */
  const covered = new Set<string>(['start']);
  /** A called function's blocks are in its Call Function's `calls`. */
  const cover = (trace: Json[]): void => {
    for (const entry of trace) {
      covered.add(entry.type);
      if (Array.isArray(entry.calls)) cover(entry.calls);
    }
  };

  it.each<[string, string, Sample, number]>([
    ['set variable, encode, decode, manipulate text, match regex, run code, condition (false), respond', 'text', { method: 'GET', path: '/text', query: { name: 'Ada Lovelace' } }, 202],
    ['condition (true), return error', 'text', { method: 'GET', path: '/api/text', query: { name: 'nobody' } }, 404],
    ['query defaults', 'text', { method: 'GET', path: '/text' }, 202],
    ['http request (allowed and egress-blocked), generate text, send email, manipulate image', 'ports', { method: 'POST', path: '/ports', body: { item: 'lamp', who: 'Ada' } }, 200],
    ['a failing block (500 flow_error)', 'broken', { method: 'POST', path: '/broken', body: { data: '%%%' } }, 500],
    ['a flow without Respond (200 {})', 'silent', { method: 'GET', path: '/silent' }, 200],
    ['call function, return', 'call', { method: 'GET', path: '/call' }, 200],
    ['query rows, get row (found)', 'read', { method: 'GET', path: '/parts', query: { min: '10' } }, 200],
    ['a value a table cannot store (422 invalid_value, nothing written)', 'write', { method: 'POST', path: '/parts', body: { name: 'washer', qty: 'lots', more: 1 } }, 422],
    ['for each, call function (looping), return', 'loop', { method: 'POST', path: '/loop', body: { groups: [['a', 'b'], ['c']] } }, 200],
  ])('%s', async (_, key, sample, status) => {
    const fromGateway = await live(sample);
    const fromTest = await tested(key, sample);
    expect(fromGateway.status).toBe(status);
    expect(withoutImageIds({ status: fromTest.status, body: fromTest.body })).toEqual(withoutImageIds({ status: fromGateway.status, body: fromGateway.body }));
    expect(fromTest.contentType).toBe(fromGateway.contentType);
    cover(fromTest.trace);
  });

  it('get row by id: the same row for both', async () => {
    const bolt = seeded.get('bolt')!;
    const sample: Sample = { method: 'GET', path: '/parts', query: { min: '100', id: String(bolt.id) } };
    const fromGateway = await live(sample);
    const fromTest = await tested('read', sample);
    expect(fromGateway).toMatchObject({ status: 200, body: { rows: [], count: 0, one: bolt } });
    expect({ status: fromTest.status, body: fromTest.body }).toEqual({ status: fromGateway.status, body: fromGateway.body });
    expect(fromTest.contentType).toBe(fromGateway.contentType);
  });

  it('insert row, update rows, delete rows: the same answer, each from a row of its own, and the table as it was', async () => {
    const sample: Sample = { method: 'POST', path: '/parts', body: { name: 'spring', qty: '5', more: 8 } };
    const fromGateway = await live(sample);
    const fromTest = await tested('write', sample);
    const row = { id: '<row id>', created_at: '<time>', updated_at: '<time>', name: 'spring' };
    expect(withoutRowIdentity(fromGateway)).toMatchObject({
      status: 201,
      body: { made: { ...row, qty: 5 }, changed: { count: 1, rows: [{ ...row, qty: 8 }] }, gone: { count: 1 }, left: null },
    });
    expect(withoutRowIdentity({ status: fromTest.status, body: fromTest.body })).toEqual(withoutRowIdentity({ status: fromGateway.status, body: fromGateway.body }));
    expect(fromTest.contentType).toBe(fromGateway.contentType);
    const made = (answer: { body: unknown }) => (answer.body as Json).made.id as string;
    expect(made(fromTest)).not.toBe(made(fromGateway));
    expect((fromTest.body as Json).changed.rows[0].id).toBe(made(fromTest));
    cover(fromTest.trace);
    const rows = await t.http().get(`/v1/projects/${project.id}/tables/${tableId}/rows`).set(owner.auth).expect(200);
    expect(rows.body.items).toEqual([...seeded.values()]);
  });

  it('the answers above came from real work, and every block type of the catalogue ran', async () => {
    const ports = await live({ method: 'POST', path: '/ports', body: { item: 'lamp', who: 'Ada' } });
    expect((await live({ method: 'POST', path: '/loop', body: { groups: [['a', 'b'], ['c']] } })).body).toEqual({ all: [['A', 'B'], ['C']] });
    expect(ports.body).toEqual({ stock: 7, status: 200, blocked: 'egress_blocked', note: 'Kind words', image: expect.stringMatching(/\/_images\/.+\.png$/) });
    const { blockCatalogue } = await import('@flowgate/flow-engine');
    // Stream Text answers live as an event stream and in a test run as one whole answer, by design:
    // the two are compared in apps/control-plane/src/test-runs/stream-text.int.spec.ts.
    const comparable = blockCatalogue.map((block) => block.type).filter((type) => type !== 'stream_text');
    expect([...covered].sort()).toEqual(comparable.sort());
  });
});
