// The OpenAPI document of a project, end to end: built by the real control plane when endpoints
// go live, served by two gateways at /_openapi.json, valid OpenAPI 3.1, and good enough that a
// client built from it alone calls every endpoint successfully.
import { validate } from '@readme/openapi-parser';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Jimp } from 'jimp';
import { startTestApp, type TestAccount, type TestApp } from '../../apps/control-plane/src/testing/test-app';
import type { Gateway } from '../../apps/gateway/src/gateway';
import { startGateway } from '../../apps/gateway/src/testing/gateway-harness';
import { call, type CallResult, type Schema, schemaProblems } from '@flowgate/testing';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { operationsOf } from '../../apps/dashboard/src/features/docs/operations';
import { curlSnippet, fetchSnippet } from '../../apps/dashboard/src/features/docs/snippets';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const node = (id: string, type: string, config: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, config });
const chain = (ids: string[]) => ids.slice(1).map((target, i) => ({ id: `e${i}`, source: ids[i]!, target }));

describe('API description: control plane → Redis → every gateway', () => {
  let t: TestApp;
  let owner: TestAccount;
  let gateways: Gateway[];
  let remote: http.Server;
  let remoteUrl: string;
  let project: { id: string; subdomain: string; base_url: string };
  let adminKey: string;

  const api = (method: 'get' | 'post' | 'put' | 'patch', url: string, body?: unknown) => {
    const request = t.http()[method](url).set(owner.auth);
    return body === undefined ? request : request.send(body as object);
  };
  const host = () => new URL(project.base_url).host;
  const openApiAt = (gateway: Gateway, key?: string) => call(gateway.url, host(), '/_openapi.json', { key });

  async function deploy(body: Record<string, unknown>): Promise<string> {
    const created = await api('post', `/v1/projects/${project.id}/endpoints`, body).expect(201);
    await api('post', `/v1/projects/${project.id}/endpoints/${created.body.id}/deploy`).expect(200);
    return created.body.id as string;
  }

  beforeAll(async () => {
    const image = new Jimp({ width: 2, height: 1, color: 0x336699ff });
    const png = await image.getBuffer('image/png');
    remote = http.createServer((req, res) => {
      if (req.url === '/photo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ stock: 7 }));
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;

    // Flows may reach the stand-in on 127.0.0.1 (image work runs in worker threads that read the environment).
    process.env.FLOWGATE_EGRESS_ALLOW_CIDRS = '127.0.0.0/8';
    t = await startTestApp();
    owner = await t.signup();
    gateways = await Promise.all([0, 1].map(() => startGateway()));
    project = await t.createProject(owner, 'Every block');
    adminKey = (await api('post', `/v1/projects/${project.id}/api-keys`, { name: 'admin', permission: 'admin', ratelimit_min: 1000 }).expect(201)).body.key;

    // Every block type, every auth level, every method with a body.
    await deploy({
      name: 'Greet',
      method: 'GET',
      path: '/greet',
      auth: 'none',
      query_params: [{ key: 'name', default: 'world' }],
      flow: {
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 } },
          node('v', 'set_variable', { name: 'greeting', value: 'Hello {params.name}' }),
          node('enc', 'encode_text', { input: '{local.greeting}', encoding: 'base64', ref: 'b64' }),
          node('dec', 'decode_text', { input: '{result.b64}', encoding: 'base64', ref: 'plain' }),
          node('up', 'manipulate_text', { input: '{result.plain}', operation: 'uppercase', ref: 'loud' }),
          node('rx', 'match_regex', { input: '{result.loud}', pattern: '(?<word>[A-Z]+)', ref: 'm' }),
          node('c', 'condition', { left: '{params.name}', operator: 'eq', right: 'nobody' }),
          node('no', 'return_error', { status: 404, message: 'Nobody to greet', code: 'nobody' }),
          node('ok', 'respond', { body: { greeting: '{result.loud}', encoded: '{result.b64}', first: '{result.m.word}', matched: '{result.m.isMatch}', at: '{current_time}' } }),
        ],
        edges: [...chain(['start', 'v', 'enc', 'dec', 'up', 'rx', 'c']), { id: 'ct', source: 'c', target: 'no', sourceHandle: 'true' }, { id: 'cf', source: 'c', target: 'ok', sourceHandle: 'false' }],
      },
    });
    await deploy({
      name: 'Create order',
      method: 'POST',
      path: '/orders',
      auth: 'user',
      query_params: [],
      flow: {
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 } },
          node('h', 'http_request', { name: 'stock', url: `${remoteUrl}/stock/{body.item}`, method: 'GET' }),
          node('r', 'respond', { status: 201, body: { item: '{body.item}', qty: '{request.body.qty}', upstream: '{stock.status}', stock: '{stock.body.stock}' } }),
        ],
        edges: chain(['start', 'h', 'r']),
      },
    });
    await deploy({
      name: 'Cancel order',
      method: 'DELETE',
      path: '/orders',
      auth: 'admin',
      query_params: [{ key: 'id', default: null }],
      flow: {
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 } },
          node('g', 'generate_text', { prompt: 'Say goodbye to order {params.id}', ref: 'note' }),
          node('m', 'send_email', { to: 'ops@example.com', from: 'Shop <shop@{params.id}.example.com>', subject: 'Cancelled', body: '{result.note}' }),
          node('r', 'respond', { body: { cancelled: '{params.id}', note: '{result.note}' } }),
        ],
        edges: chain(['start', 'g', 'm', 'r']),
      },
    });
    await deploy({
      name: 'Grey picture',
      method: 'PUT',
      path: '/picture',
      auth: 'none',
      query_params: [],
      flow: {
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 } },
          node('i', 'manipulate_image', { image_url: '{body.url}', operation: 'grayscale', value: 100, ref: 'grey' }),
          node('r', 'respond', { body: { url: '{result.grey}' } }),
        ],
        edges: chain(['start', 'i', 'r']),
      },
    });
    await deploy({ name: 'Touch', method: 'PATCH', path: '/touch', auth: 'user', query_params: [], flow: { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] } });
  }, 120_000);

  afterAll(async () => {
    await Promise.all((gateways ?? []).map((gateway) => gateway.close()));
    await t?.close();
    await new Promise((resolve) => remote?.close(resolve));
  });

  it('serves one valid OpenAPI 3.1 document, the same text on every gateway and in the dashboard API', async () => {
    const fromDashboard = await api('get', `/v1/projects/${project.id}/openapi.json`).expect(200);
    const served = await Promise.all(gateways.map((gateway) => openApiAt(gateway)));
    for (const res of served) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.text).toBe(fromDashboard.text);
    }
    const doc = served[0]!.json as Json;
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(doc.servers).toEqual([{ url: project.base_url }]);
    expect(Object.fromEntries(Object.entries(doc.paths as Json).map(([path, item]) => [path, Object.keys(item)]))).toEqual({
      '/greet': ['get'],
      '/orders': ['post', 'delete'],
      '/picture': ['put'],
      '/touch': ['patch'],
    });
    expect(doc.paths['/orders'].delete.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(doc.paths['/orders'].delete.responses)).toEqual(['200', '401', '403', '429', '500', '503', '504']);
    expect(Object.keys(doc.paths['/greet'].get.responses)).toEqual(['200', '404', '500']);
  });

  it('is enough to call every endpoint: requests built from it alone succeed and answer as it says', async () => {
    const doc = (await openApiAt(gateways[0]!)).json as Json;
    const server = new URL(doc.servers[0].url);
    let calls = 0;
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        const res = await callOperation(gateways[calls++ % 2]!, server.host, path, method, operation, { adminKey, remoteUrl });
        const documented = operation.responses[String(res.status)];
        expect({ operation: operation.operationId, status: res.status, documented: documented !== undefined }).toEqual({
          operation: operation.operationId,
          status: Number(Object.keys(operation.responses).find((status) => status.startsWith('2'))),
          documented: true,
        });
        expect({ operation: operation.operationId, problems: schemaProblems(documented.content['application/json'].schema as Schema, res.json) }).toEqual({
          operation: operation.operationId,
          problems: [],
        });
      }
    }
    expect(calls).toBe(5);
  });

  it("the API docs page's curl and fetch snippets work as printed (with a real key)", async () => {
    const gateway = gateways[0]!;
    const operations = operationsOf((await openApiAt(gateway)).json as Json);
    expect(operations).toHaveLength(5);
    for (const op of operations) {
      const withKey = (code: string) => code.replace('<your key>', adminKey);
      // curl, as copied, with the gateway's address in place of the DNS name.
      // Asynchronously: the gateway answering it runs in this process.
      const curlOut = await sh(`${withKey(curlSnippet(op))} -s --connect-to ::127.0.0.1:${gateway.port} -w '\n%{http_code}'`);
      const lines = curlOut.split('\n');
      const curlStatus = lines.pop()!;
      // fetch, as copied, run against a fetch that sends to this gateway with the URL's Host.
      const viaGateway = async (url: string, init: { method: string; headers?: Record<string, string>; body?: string }) => {
        const target = new URL(url);
        const res = await call(gateway.url, target.host, target.pathname + target.search, { method: init.method, headers: init.headers, body: init.body });
        return { status: res.status, json: async () => res.json };
      };
      const run = new Function('fetch', `return (async () => { ${withKey(fetchSnippet(op))}\n return { status: response.status, data }; })();`) as (
        fetch: typeof viaGateway,
      ) => Promise<{ status: number; data: unknown }>;
      const fetched = await run(viaGateway);
      const documented = op.responses.find((response) => response.status === String(fetched.status));
      expect({ op: op.id, curl: Number(curlStatus), documented: documented !== undefined }).toEqual({ op: op.id, curl: fetched.status, documented: true });
      expect({ op: op.id, problems: schemaProblems(documented!.schema as Schema, fetched.data) }).toEqual({ op: op.id, problems: [] });
      expect(schemaProblems(documented!.schema as Schema, JSON.parse(lines.join('\n')))).toEqual([]);
    }
    const greet = operations.find((op) => op.path === '/greet')!;
    expect(JSON.parse(await sh(`${curlSnippet(greet)} -s --connect-to ::127.0.0.1:${gateway.port}`))).toMatchObject({
      greeting: 'HELLO WORLD',
    });
  });

  it('changes on the very next request after a deploy, an undeploy and a rollback, on every gateway', async () => {
    const id = await deploy({ name: 'Version', method: 'GET', path: '/version', auth: 'none', query_params: [], flow: respondFlow('one') });
    const versionOf = async (gateway: Gateway) => {
      const doc = (await openApiAt(gateway)).json as Json;
      return doc.paths['/version']?.get.responses['200'].content['application/json'].schema.properties.v.const ?? null;
    };
    expect(await Promise.all(gateways.map(versionOf))).toEqual(['one', 'one']);
    await api('put', `/v1/projects/${project.id}/endpoints/${id}`, { name: 'Version', method: 'GET', path: '/version', flow: respondFlow('two') }).expect(200);
    await api('post', `/v1/projects/${project.id}/endpoints/${id}/deploy`).expect(200);
    expect(await Promise.all(gateways.map(versionOf))).toEqual(['two', 'two']);
    await api('post', `/v1/projects/${project.id}/endpoints/${id}/versions/1/deploy`).expect(200);
    expect(await Promise.all(gateways.map(versionOf))).toEqual(['one', 'one']);
    await api('post', `/v1/projects/${project.id}/endpoints/${id}/undeploy`).expect(200);
    expect(await Promise.all(gateways.map(versionOf))).toEqual([null, null]);
  });

  it('reproduces an endpoint in another project: export → import → deploy → the same answers', async () => {
    const listed = await api('get', `/v1/projects/${project.id}/endpoints`).expect(200);
    const greet = listed.body.items.find((item: { path: string }) => item.path === '/greet');
    const file = (await api('get', `/v1/projects/${project.id}/endpoints/${greet.id}/export`).expect(200)).body;
    const copy = await t.createProject(owner, 'Copy');
    const imported = await api('post', `/v1/projects/${copy.id}/endpoints/import`, file).expect(201);
    expect(imported.body).toMatchObject({ status: 'draft', live_url: null });
    await api('post', `/v1/projects/${copy.id}/endpoints/${imported.body.id}/deploy`).expect(200);
    const answer = async (base: string, query: string) => {
      const res = await call(gateways[0]!.url, new URL(base).host, `/greet${query}`);
      const { at, ...rest } = res.json as Json;
      return { status: res.status, at: typeof at, ...rest };
    };
    for (const query of ['', '?name=Ada', '?name=nobody']) {
      expect(await answer(copy.base_url, query)).toEqual(await answer(project.base_url, query));
    }
    expect(await answer(copy.base_url, '?name=nobody')).toMatchObject({ status: 404, code: 'nobody' });
  });

  it('under Require Authentication needs a key of the project, and fetching it costs none of the key’s requests', async () => {
    const other = await t.createProject(owner, 'Other');
    const otherKey = (await api('post', `/v1/projects/${other.id}/api-keys`, { name: 'k', ratelimit_min: 5 }).expect(201)).body.key;
    const oneAMinute = (await api('post', `/v1/projects/${project.id}/api-keys`, { name: 'slow', ratelimit_min: 1 }).expect(201)).body.key;
    await api('patch', `/v1/projects/${project.id}`, { require_auth: true }).expect(200);
    try {
      const gateway = gateways[1]!;
      const anonymous = await openApiAt(gateway);
      expect({ status: anonymous.status, code: (anonymous.json as Json).code }).toEqual({ status: 401, code: 'missing_api_key' });
      expect((await openApiAt(gateway, otherKey)).status).toBe(401);
      for (let i = 0; i < 3; i++) {
        const res = await openApiAt(gateway, oneAMinute);
        expect(res.status).toBe(200);
        expect((res.json as Json).paths['/greet'].get.security).toEqual([{ apiKey: [] }]);
      }
      expect((await call(gateway.url, host(), '/greet', { key: oneAMinute })).status).toBe(200);
      expect((await call(gateway.url, host(), '/greet', { key: oneAMinute })).status).toBe(429);
    } finally {
      await api('patch', `/v1/projects/${project.id}`, { require_auth: false }).expect(200);
    }
  });
});

const sh = async (command: string): Promise<string> => (await promisify(execFile)('sh', ['-c', command], { encoding: 'utf8' })).stdout;

const respondFlow = (v: string) => ({
  nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, node('r', 'respond', { body: { v } })],
  edges: chain(['start', 'r']),
});

/** What a generated client does: parameters, a body from the schema, the key when security asks. */
function callOperation(
  gateway: Gateway,
  host: string,
  path: string,
  method: string,
  operation: Json,
  values: { adminKey: string; remoteUrl: string },
): Promise<CallResult> {
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) query.set(parameter.name, parameter.schema.default ?? 'order-7');
  const headers: Record<string, string> = {};
  let body: string | undefined;
  const schema = operation.requestBody?.content['application/json'].schema;
  if (schema) {
    const sample: Record<string, unknown> = {};
    for (const [field, fieldSchema] of Object.entries((schema.properties ?? {}) as Json)) {
      // A URL field gets something fetchable; anything else a value of its type.
      sample[field] = field === 'url' ? `${values.remoteUrl}/photo.png` : fieldSchema.type === 'object' ? {} : 'sample';
    }
    body = JSON.stringify(sample);
    headers['content-type'] = 'application/json';
  }
  const search = query.size > 0 ? `?${query}` : '';
  return call(gateway.url, host, path + search, { method: method.toUpperCase(), headers, body, key: operation.security ? values.adminKey : undefined });
}
