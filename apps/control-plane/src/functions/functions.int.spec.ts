import { call, type GatewayProcess, spawnGateway, waitFor } from '@flowgate/testing';
import { type TestAccount, type TestApp, publishedProject, useTestApp } from '../testing/test-app';

jest.setTimeout(120_000);

const position = { x: 0, y: 0 };
type Node = { id: string; type: string; config?: Record<string, unknown> };
/** Start → the blocks in order. */
const chain = (...blocks: Node[]) => ({
  nodes: [{ id: 'start', type: 'start', position }, ...blocks.map((block) => ({ ...block, position }))],
  edges: ['start', ...blocks.map((block) => block.id)].slice(1).map((target, index, all) => ({ id: `e${index}`, source: index === 0 ? 'start' : all[index - 1], target })),
});
const returning = (value: unknown) => chain({ id: 'ret', type: 'return_value', config: { value } });
const calling = (functionId: string, args: Record<string, unknown>) =>
  chain({ id: 'call', type: 'call_function', config: { function: functionId, args, ref: 'priced' } }, { id: 'respond', type: 'respond', config: { body: '{result.priced}' } });

const PRICE_INPUTS = [
  { name: 'amount', type: 'number', required: true },
  { name: 'currency', type: 'string', required: false, default: 'EUR' },
];

describe('functions: REST lifecycle, Call Function, refusals (real PostgreSQL, Redis and two gateways)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let gateways: GatewayProcess[] = [];
  useTestApp((app, account) => ([t, owner] = [app, account]));

  beforeAll(async () => {
    gateways = await Promise.all([spawnGateway(), spawnGateway()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
  });

  async function setup() {
    const project = await t.createProject(owner);
    const base = `/v1/projects/${project.id}`;
    const post = (path: string, body?: unknown) => t.http().post(base + path).set(owner.auth).send(body as object);
    const put = (path: string, body: unknown) => t.http().put(base + path).set(owner.auth).send(body as object);
    const createFunction = async (name: string, flow: unknown, inputs: unknown[] = PRICE_INPUTS) =>
      (await post('/functions', { name, inputs, flow }).expect(201)).body as { id: string };
    const createEndpoint = async (path: string, flow: unknown) => (await post('/endpoints', { name: path, method: 'POST', path, flow }).expect(201)).body as { id: string };
    return { project, base, post, put, createFunction, createEndpoint };
  }

  const onEveryGateway = (subdomain: string, path: string, body: unknown) =>
    Promise.all(gateways.map((gateway) => call(gateway.url, `${subdomain}.localhost:8080`, path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })));

  it('keeps a function as endpoints are kept: create, Save, Deploy, versions, rollback, export and import', async () => {
    const { base, post, put, createFunction } = await setup();
    const fn = await createFunction('Price', returning({ total: '{input.amount}', currency: '{input.currency}' }));
    const read = await t.http().get(`${base}/functions/${fn.id}`).set(owner.auth).expect(200);
    expect(read.body).toMatchObject({ name: 'Price', description: '', inputs: PRICE_INPUTS, status: 'draft', live_version: null, has_undeployed_changes: true });

    expect((await post(`/functions/${fn.id}/deploy`).expect(200)).body).toMatchObject({ status: 'live', live_version: 1, has_undeployed_changes: false });
    const saved = await put(`/functions/${fn.id}`, { name: 'Price', description: 'With tax', inputs: PRICE_INPUTS, flow: returning({ total: '{input.amount}', taxed: true }) }).expect(200);
    expect(saved.body).toMatchObject({ live_version: 1, has_undeployed_changes: true, diagnostics: [] });
    expect((await post(`/functions/${fn.id}/deploy`).expect(200)).body).toMatchObject({ live_version: 2, has_undeployed_changes: false });
    const versions = await t.http().get(`${base}/functions/${fn.id}/versions`).set(owner.auth).expect(200);
    expect(versions.body.items.map((v: { version: number; live: boolean }) => [v.version, v.live])).toEqual([[2, true], [1, false]]);
    expect((await post(`/functions/${fn.id}/versions/1/deploy`).expect(200)).body).toMatchObject({ live_version: 1, has_undeployed_changes: true });

    const file = (await t.http().get(`${base}/functions/${fn.id}/export`).set(owner.auth).expect(200)).body;
    expect(file).toMatchObject({ flowgate_export: 1, function: { name: 'Price', description: 'With tax', inputs: PRICE_INPUTS } });
    expect((await post('/functions/import', file).expect(409)).body).toMatchObject({ code: 'conflict', details: [{ path: 'name' }] });
    const imported = await post('/functions/import', { ...file, function: { ...file.function, name: 'Price copy' } }).expect(201);
    expect(imported.body).toMatchObject({ name: 'Price copy', status: 'draft' });
  });

  it('serves the live version to two endpoints on two gateways, and a redeploy on the next requests of both', async () => {
    const { project, post, put, createFunction, createEndpoint } = await setup();
    const fn = await createFunction('Price', returning({ total: '{input.amount}', currency: '{input.currency}', version: 1 }));
    await post(`/functions/${fn.id}/deploy`).expect(200);
    const checkout = await createEndpoint('/checkout', calling(fn.id, { amount: '{body.amount}' }));
    const quote = await createEndpoint('/quote', calling(fn.id, { amount: '{body.amount}', currency: 'USD' }));
    await post(`/endpoints/${checkout.id}/deploy`).expect(200);
    await post(`/endpoints/${quote.id}/deploy`).expect(200);

    const answers = async () => [...(await onEveryGateway(project.subdomain, '/checkout', { amount: 12 })), ...(await onEveryGateway(project.subdomain, '/quote', { amount: 5 }))].map((r) => r.json);
    // The wait guards against a hang; the values are what is asserted.
    await waitFor(async () => JSON.stringify(await answers()).includes('"version":1'), 'both endpoints to answer on both gateways');
    expect(await answers()).toEqual([
      { total: 12, currency: 'EUR', version: 1 },
      { total: 12, currency: 'EUR', version: 1 },
      { total: 5, currency: 'USD', version: 1 },
      { total: 5, currency: 'USD', version: 1 },
    ]);

    await put(`/functions/${fn.id}`, { name: 'Price', inputs: PRICE_INPUTS, flow: returning({ total: '{input.amount}', currency: '{input.currency}', version: 2 }) }).expect(200);
    await post(`/functions/${fn.id}/deploy`).expect(200);
    const published = await publishedProject(t.redis, project.id);
    expect(published?.functions).toEqual([expect.objectContaining({ function_id: fn.id, version: 2 })]);
    await waitFor(async () => (await answers()).every((body) => (body as { version?: number }).version === 2), 'the redeployed function on both gateways');
    expect(await answers()).toEqual([
      { total: 12, currency: 'EUR', version: 2 },
      { total: 12, currency: 'EUR', version: 2 },
      { total: 5, currency: 'USD', version: 2 },
      { total: 5, currency: 'USD', version: 2 },
    ]);
    // A value the input type refuses fails the call, naming the input.
    const [refused] = await onEveryGateway(project.subdomain, '/checkout', { amount: 'twelve' });
    expect(refused).toMatchObject({ status: 422, json: { code: 'invalid_argument', message: expect.stringMatching(/the input amount must be a number/) } });
  });

  it('refuses a Deploy that calls a function that is not live, misses or mistypes an argument, or closes a cycle', async () => {
    const { post, put, createFunction, createEndpoint } = await setup();
    const fn = await createFunction('Price', returning('{input.amount}'));
    const endpoint = await createEndpoint('/checkout', calling(fn.id, { amount: 3 }));
    const notLive = await post(`/endpoints/${endpoint.id}/deploy`).expect(400);
    expect(notLive.body).toMatchObject({ code: 'function_not_live', details: [expect.objectContaining({ code: 'function_not_live', node_id: 'call' })] });

    await post(`/functions/${fn.id}/deploy`).expect(200);
    for (const args of [{}, { amount: 'three' }, { amount: 3, colour: 'red' }]) {
      await put(`/endpoints/${endpoint.id}`, { name: 'x', method: 'POST', path: '/checkout', flow: calling(fn.id, args) }).expect(200);
      const refused = await post(`/endpoints/${endpoint.id}/deploy`).expect(400);
      expect(refused.body).toMatchObject({ code: 'invalid_argument', details: [expect.objectContaining({ code: 'invalid_argument', node_id: 'call' })] });
    }

    // Tax calls Price (live); Price calling Tax would close a cycle.
    const tax = await createFunction('Tax', chain({ id: 'c', type: 'call_function', config: { function: fn.id, args: { amount: 1 }, ref: 'p' } }, { id: 'r', type: 'return_value', config: { value: '{result.p}' } }));
    await post(`/functions/${tax.id}/deploy`).expect(200);
    await put(`/functions/${fn.id}`, { name: 'Price', inputs: PRICE_INPUTS, flow: chain({ id: 'c', type: 'call_function', config: { function: tax.id, args: { amount: 2 }, ref: 't' } }, { id: 'r', type: 'return_value', config: { value: 1 } }) }).expect(200);
    const cycle = await post(`/functions/${fn.id}/deploy`).expect(400);
    expect(cycle.body).toMatchObject({ code: 'function_cycle', message: expect.stringContaining('Price → Tax → Price') });
  });

  it('refuses Respond in a function and a path without Return', async () => {
    const { post, createFunction } = await setup();
    const responds = await createFunction('Responds', chain({ id: 'r', type: 'respond', config: { body: 1 } }));
    expect((await post(`/functions/${responds.id}/deploy`).expect(400)).body).toMatchObject({ code: 'invalid_flow', details: [expect.objectContaining({ code: 'not_in_function', node_id: 'r' })] });
    const open = await createFunction('Open', chain({ id: 's', type: 'set_variable', config: { name: 'a', value: 1 } }));
    expect((await post(`/functions/${open.id}/deploy`).expect(400)).body.details).toContainEqual(expect.objectContaining({ code: 'no_return', node_id: 's' }));
  });

  it('refuses to delete or undeploy a function that a live endpoint calls (409 function_in_use naming it)', async () => {
    const { base, post, createFunction, createEndpoint } = await setup();
    const fn = await createFunction('Price', returning(1));
    await post(`/functions/${fn.id}/deploy`).expect(200);
    const endpoint = await createEndpoint('/checkout', calling(fn.id, { amount: 1 }));
    await post(`/endpoints/${endpoint.id}/deploy`).expect(200);

    const refused = await t.http().delete(`${base}/functions/${fn.id}`).set(owner.auth).expect(409);
    expect(refused.body).toMatchObject({ code: 'function_in_use', message: expect.stringContaining('POST /checkout'), details: [{ path: `endpoints.${endpoint.id}` }] });
    expect((await post(`/functions/${fn.id}/undeploy`).expect(409)).body).toMatchObject({ code: 'function_in_use' });

    await post(`/endpoints/${endpoint.id}/undeploy`).expect(200);
    await t.http().delete(`${base}/functions/${fn.id}`).set(owner.auth).expect(200);
    await t.http().get(`${base}/functions/${fn.id}`).set(owner.auth).expect(404);
  });

  it("test runs call the functions' drafts and nest their blocks' trace under the Call Function", async () => {
    const { post, createFunction, createEndpoint } = await setup();
    const fn = await createFunction('Price', chain({ id: 'label', type: 'set_variable', config: { name: 'label', value: '{input.amount} {input.currency}' } }, { id: 'ret', type: 'return_value', config: { value: '{local.label}' } }));
    const endpoint = await createEndpoint('/checkout', calling(fn.id, { amount: '{body.amount}' }));
    const ran = await post(`/endpoints/${endpoint.id}/test-runs`, { request: { body: { amount: 7 } } }).expect(200);
    expect(ran.body.response).toMatchObject({ status: 200, body: '7 EUR' });
    expect(ran.body.trace).toEqual([
      expect.objectContaining({ node_id: 'call', status: 'ok', output: '7 EUR', calls: [expect.objectContaining({ node_id: 'label', output: '7 EUR' }), expect.objectContaining({ node_id: 'ret', output: '7 EUR' })] }),
      expect.objectContaining({ node_id: 'respond' }),
    ]);

    // The function's own Test: its editor flow called with the arguments given.
    const tested = await post(`/functions/${fn.id}/test-runs`, { args: { amount: 3, currency: 'USD' }, flow: returning({ doubled: '{input.amount}', currency: '{input.currency}' }) }).expect(200);
    expect(tested.body.response.body).toEqual({ doubled: 3, currency: 'USD' });
    expect(tested.body.trace[0]).toMatchObject({ type: 'call_function', calls: [expect.objectContaining({ type: 'return_value' })] });
    const refused = await post(`/functions/${fn.id}/test-runs`, { args: { amount: 'x' } }).expect(200);
    expect(refused.body.response).toMatchObject({ status: 422, body: { code: 'invalid_argument' } });
  });

  it("is a 404 for another account's function and a 400 naming the field for bad inputs", async () => {
    const { base, post, createFunction } = await setup();
    const fn = await createFunction('Price', returning(1));
    const stranger = await t.signup();
    await t.http().get(`${base}/functions/${fn.id}`).set(stranger.auth).expect(404);
    const bad = await post('/functions', { name: 'Bad', inputs: [{ name: 'n', type: 'number', default: 'x' }] }).expect(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ path: 'inputs.0.default' })] });
  });
});
