/**
 * No secret value leaves through an error message, in any form: every block error that quotes
 * a value is driven with a secret in its input (as written, and through every Encode Text
 * format), on every path a person sees it — the live answer to an anonymous caller, the preview
 * address, the Workshop's test run (answer and trace) and the request log. The whole stack runs
 * as processes (control plane, log-ingest, gateway) on the real PostgreSQL, Redis and Kafka.
 */
import { randomBytes } from 'node:crypto';
import { TEXT_ENCODERS, TEXT_ENCODINGS } from '@flowgate/contracts';
import { type Answer, type AppStack, request, startAppStack, waitFor } from '@flowgate/testing';

jest.setTimeout(240_000);

const suffix = randomBytes(4).toString('hex');
/**
 * A value every form of which differs from it: a quote and a backslash (JSON escapes them),
 * upper case (a DNS error lower-cases), non-ASCII (utf8 and ascii forms), and longer than the
 * 57 characters a message used to keep of a quoted value before masking.
 */
const TOKEN = `Sk"Lv\\Ünï-${suffix}-${'Q7'.repeat(40)}`;
/** A host label: letters and digits only, upper case so that the DNS error's lower-cased form differs. */
const HOST = `LeakHost${suffix.toUpperCase()}`;

/** Every form of a value that must not appear, and the first characters of each (a value cut before masking). */
function forbidden(value: string): string[] {
  const forms = [value, JSON.stringify(value).slice(1, -1), value.toLowerCase(), encodeURIComponent(value), ...TEXT_ENCODINGS.map((e) => TEXT_ENCODERS[e](value))];
  return [...new Set(forms.flatMap((form) => [form, form.slice(0, 16)]))];
}
const FORBIDDEN = [...forbidden(TOKEN), ...forbidden(HOST)];

let stack: AppStack;
const seen: string[] = [];
let api: string;
let gateway: string;
let gatewayPort: number;
let token: string;
let projectId: string;
let key: string;
const subdomain = `leak-${suffix}`;

/** Every string of every answer (keys too), as the client read it, for the final search. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, item]) => [name, ...strings(item)]);
}
const kept = (answer: Answer): Answer => {
  seen.push(...strings(answer.body));
  return answer;
};
const cp = async (path: string, options: Parameters<typeof request>[1] = {}) => kept(await request(`${api}${path}`, { token, ...options }));
const served = async (host: string, path: string, options: Parameters<typeof request>[1] = {}) => kept(await request(`${gateway}${path}`, { host: `${host}.localhost:${gatewayPort}`, ...options }));

type Block = { id: string; type: string; config: Record<string, unknown> };
/** Start → the blocks in order → (optionally) Return Error quoting what the last block stored. */
function chain(blocks: Block[]) {
  const nodes = [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, ...blocks.map((block, i) => ({ ...block, position: { x: 250 * (i + 1), y: 0 } }))];
  const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: nodes[i]!.id, target: node.id }));
  return { nodes, edges };
}
const encode = (encoding: string): Block => ({ id: 'enc', type: 'encode_text', config: { input: '{secrets.TOKEN}', encoding, ref: 'enc' } });

/** One flow per error that quotes a value, each fed a secret. */
const CASES: Array<{ name: string; flow: ReturnType<typeof chain>; status: number }> = [
  { name: 'insert-number', status: 422, flow: chain([{ id: 'ins', type: 'insert_row', config: { table: 'items', values: { n: '{secrets.TOKEN}' }, ref: 'row' } }]) },
  { name: 'insert-datetime', status: 422, flow: chain([{ id: 'ins', type: 'insert_row', config: { table: 'items', values: { at: '{secrets.TOKEN}' }, ref: 'row' } }]) },
  { name: 'insert-boolean', status: 422, flow: chain([{ id: 'ins', type: 'insert_row', config: { table: 'items', values: { yes: '{secrets.TOKEN}' }, ref: 'row' } }]) },
  { name: 'update-number', status: 422, flow: chain([{ id: 'upd', type: 'update_rows', config: { table: 'items', filter: [{ column: 'n', operator: 'eq', value: 1 }], values: { n: '{secrets.TOKEN}' }, ref: 'rows' } }]) },
  { name: 'query-number', status: 422, flow: chain([{ id: 'q', type: 'query_rows', config: { table: 'items', filter: [{ column: 'n', operator: 'eq', value: '{secrets.TOKEN}' }], ref: 'rows' } }]) },
  { name: 'delete-number', status: 422, flow: chain([{ id: 'd', type: 'delete_rows', config: { table: 'items', filter: [{ column: 'n', operator: 'gt', value: '{secrets.TOKEN}' }], ref: 'gone' } }]) },
  ...TEXT_ENCODINGS.map((encoding) => ({
    name: `encoded-${encoding}`,
    status: 422,
    flow: chain([encode(encoding), { id: 'ins', type: 'insert_row', config: { table: 'items', values: { n: '{result.enc}' }, ref: 'row' } }]),
  })),
  { name: 'regex', status: 500, flow: chain([{ id: 'rx', type: 'match_regex', config: { input: 'text', pattern: '({secrets.TOKEN}', flags: '', ref: 'm' } }]) },
  {
    name: 'email-to',
    status: 500,
    flow: chain([{ id: 'mail', type: 'send_email', config: { to: '{secrets.TOKEN}', from: 'Shop <orders@shop.test>', subject: 'Hi', body: 'Hello' } }]),
  },
  // The image URL is fetched through the egress guard, whose errors quote the host (lower-cased by URL parsing).
  { name: 'dns', status: 500, flow: chain([{ id: 'img', type: 'manipulate_image', config: { image_url: 'http://{secrets.HOST}.invalid/a.png', operation: 'invert', value: 100, ref: 'out' } }]) },
  { name: 'bad-url', status: 500, flow: chain([{ id: 'img', type: 'manipulate_image', config: { image_url: 'http://[{secrets.HOST}/a.png', operation: 'invert', value: 100, ref: 'out' } }]) },
];

beforeAll(async () => {
  stack = await startAppStack();
  gatewayPort = stack.gatewayPort;
  api = `${stack.controlPlaneUrl}/v1`;
  gateway = stack.gatewayUrl;
  token = (await request(`${api}/auth/signup`, { method: 'POST', body: { email: `leaks-${suffix}@example.com`, password: 'correct horse battery' } })).body.token;
  projectId = (await cp('/projects', { method: 'POST', body: { name: 'Leaks', subdomain } })).body.id;
  key = (await cp(`/projects/${projectId}/api-keys`, { method: 'POST', body: { name: 'app', permission: 'user', ratelimit_min: 1000 } })).body.key;
  for (const [name, value] of [['TOKEN', TOKEN], ['HOST', HOST]]) expect((await cp(`/projects/${projectId}/secrets/${name}`, { method: 'PUT', body: { value } })).status).toBe(201);
  // Send Email checks the recipient before anything is sent (no SendGrid is reached).
  const email = { provider: 'sendgrid', api_key: 'SG.leaks-0001', verified_domains: ['shop.test'] };
  expect((await cp(`/projects/${projectId}/integrations/email`, { method: 'PUT', body: email })).status).toBe(200);
  const columns = [{ name: 'n', type: 'number' }, { name: 'at', type: 'datetime' }, { name: 'yes', type: 'boolean' }];
  expect((await cp(`/projects/${projectId}/tables`, { method: 'POST', body: { name: 'items', columns } })).status).toBe(201);
});

afterAll(async () => {
  await stack?.stop();
});

test.each(CASES)('$name: the error reaches every path masked, never as the value', async ({ name, flow, status }) => {
  const settings = { name, method: 'GET', path: `/${name}`, auth: 'none', query_params: [] };
  const created = await cp(`/projects/${projectId}/endpoints`, { method: 'POST', body: { ...settings, flow } });
  expect(created.status).toBe(201);
  expect((await cp(`/projects/${projectId}/endpoints/${created.body.id}/deploy`, { method: 'POST' })).status).toBe(200);

  const run = await cp(`/projects/${projectId}/endpoints/${created.body.id}/test-runs`, { method: 'POST', body: { request: {} } });
  expect(run.status).toBe(200);
  expect(run.body.response.status).toBe(status);
  expect(run.body.response.body.message).toMatch(/\[secret:(TOKEN|HOST)\]|not accepted by the linear-time regex engine/);

  const answer = await waitFor(async () => {
    const live = await served(subdomain, `/${name}`);
    return live.status === status ? live : undefined;
  }, `the deployed /${name}`, 30_000, 100);
  expect(answer!.body.message).toBe(run.body.response.body.message);
  expect((await served(`${subdomain}--preview`, `/${name}`, { token: key })).body.message).toBe(run.body.response.body.message);
});

test('no form of a value appears in any answer, trace or log entry', async () => {
  for (const environment of ['live', 'preview']) {
    const page = await waitFor(async () => {
      const logs = await cp(`/projects/${projectId}/logs?limit=200&environment=${environment}`);
      return logs.body.items?.length >= CASES.length ? logs : undefined;
    }, `every ${environment} request in the logs`, 60_000, 200);
    for (const item of page!.body.items) expect((await cp(`/projects/${projectId}/logs/${item.id}`)).body.message).toEqual(expect.any(String));
  }
  const everything = seen.join('\n');
  expect(everything).toContain('[secret:TOKEN]');
  expect(everything).toContain('[secret:HOST]');
  for (const form of FORBIDDEN) expect({ form, found: everything.includes(form) }).toEqual({ form, found: false });
});
