import { type TestAccount, type TestApp, publishedProject, useTestApp } from '../testing/test-app';
import { brokenFlow, endpointBody, respondFlow } from '../testing/flows';

describe('endpoints: drafts, Save, Deploy, versions (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let owner: TestAccount;
  useTestApp((app, account) => ([t, owner] = [app, account]));

  async function setup() {
    const project = await t.createProject(owner);
    const base = `/v1/projects/${project.id}/endpoints`;
    const create = (body: Record<string, unknown>) => t.http().post(base).set(owner.auth).send(body);
    return { project, base, create };
  }

  it('creates a draft: normalised path, not live, with the validation warnings of its flow', async () => {
    const { project, create } = await setup();
    const response = await create({ name: 'Hello', path: 'hello/', flow: undefined }).expect(201);
    expect(response.body).toMatchObject({
      project_id: project.id,
      name: 'Hello',
      method: 'GET',
      path: '/hello',
      auth: 'none',
      query_params: [],
      status: 'draft',
      live_version: null,
      live_url: null,
      has_undeployed_changes: true,
    });
    expect(response.body.flow.nodes).toEqual([{ id: 'start', type: 'start', position: { x: 0, y: 0 } }]);
    expect(response.body.diagnostics).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'no_respond' }));
    expect((await publishedProject(t.redis, project.id))?.routes).toEqual([]);
  });

  it.each([
    [{ path: '/api/orders' }, 'path'],
    [{ path: '/admin' }, 'path'],
    [{ path: '/_internal' }, 'path'],
    [{ path: '/with space' }, 'path'],
    [{ method: 'HEAD' }, 'method'],
    [{ auth: 'root' }, 'auth'],
    [{ name: '' }, 'name'],
    [{ query_params: Array.from({ length: 11 }, (_, i) => ({ key: `k${i}` })) }, 'query_params'],
    [{ query_params: [{ key: 'a' }, { key: 'a' }] }, 'query_params'],
    [{ query_params: [{ key: 'bad key' }] }, 'query_params.0.key'],
    [{ flow: { nodes: 'x', edges: [] } }, 'flow.nodes'],
  ])('refuses %j with 400 naming %s', async (override, path) => {
    const { create } = await setup();
    const response = await create(endpointBody(override)).expect(400);
    expect(response.body).toMatchObject({ success: false, code: 'invalid_request' });
    expect(response.body.details).toContainEqual({ path, message: expect.any(String) });
  });

  it.each([
    ['/../admin', '. or .. segments'],
    ['/a/./b', '. or .. segments'],
    ['/%2e%2e/admin', 'percent-encoding'],
    ['/a//b', 'empty segments'],
    ['/a\\b', 'backslashes'],
  ])('refuses the path %j, which clients would rewrite before sending, with 400 saying why (%s); nothing is stored', async (path, reason) => {
    const { create, project } = await setup();
    const response = await create(endpointBody({ path })).expect(400);
    expect(response.body).toMatchObject({ success: false, code: 'invalid_request', details: [{ path: 'path', message: expect.stringContaining(reason) }] });
    expect(await t.prisma.endpoint.count({ where: { projectId: project.id } })).toBe(0);
  });

  it('refuses a flow nested 5000 levels deep with 400 invalid_json naming the limit; 100 levels are fine', async () => {
    const { base } = await setup();
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const body = (depth: number) =>
      `{"name":"Deep","path":"/deep${depth}","flow":{"nodes":[{"id":"start","type":"start","position":{"x":0,"y":0}},` +
      `{"id":"n1","type":"respond","position":{"x":0,"y":120},"config":{"status":200,"body":${nested(depth)}}}],` +
      `"edges":[{"id":"e1","source":"start","target":"n1"}]}}`;
    const deep = await t.http().post(base).set(owner.auth).set('Content-Type', 'application/json').send(body(5000)).expect(400);
    expect(deep.body).toEqual({ success: false, code: 'invalid_json', message: expect.stringContaining('deeper than 128 levels') });
    await t.http().post(base).set(owner.auth).set('Content-Type', 'application/json').send(body(100)).expect(201);
  });

  it('keeps (method, path) unique per project with 409', async () => {
    const { create } = await setup();
    await create(endpointBody()).expect(201);
    const duplicate = await create(endpointBody({ name: 'Other' })).expect(409);
    expect(duplicate.body).toMatchObject({ code: 'conflict', details: [{ path: 'path', message: expect.any(String) }] });
    await create(endpointBody({ method: 'POST' })).expect(201);
  });

  it('saves incomplete drafts with their diagnostics, and never serves a draft', async () => {
    const { project, base, create } = await setup();
    const created = await create(endpointBody()).expect(201);
    const saved = await t.http().put(`${base}/${created.body.id}`).set(owner.auth).send(endpointBody({ flow: brokenFlow() })).expect(200);
    expect(saved.body.diagnostics).toContainEqual(expect.objectContaining({ severity: 'error', node_id: 'n1', field: 'name' }));
    expect(saved.body.status).toBe('draft');
    expect((await publishedProject(t.redis, project.id))?.routes).toEqual([]);
    const read = await t.http().get(`${base}/${created.body.id}`).set(owner.auth).expect(200);
    expect(read.body.flow).toEqual(brokenFlow());
  });

  it('refuses to deploy a flow with errors: 400 invalid_flow with node id and field, nothing changes', async () => {
    const { project, base, create } = await setup();
    const created = await create(endpointBody({ flow: brokenFlow() })).expect(201);
    const response = await t.http().post(`${base}/${created.body.id}/deploy`).set(owner.auth).expect(400);
    expect(response.body).toMatchObject({ success: false, code: 'invalid_flow', message: expect.any(String) });
    expect(response.body.details).toContainEqual(
      expect.objectContaining({ severity: 'error', node_id: 'n1', field: 'name', code: expect.any(String), message: expect.any(String) }),
    );
    expect(await t.prisma.endpointVersion.count({ where: { endpointId: created.body.id } })).toBe(0);
    // Created (and so published for the preview address: revision 2), never deployed.
    expect(await publishedProject(t.redis, project.id)).toMatchObject({ revision: 2, routes: [] });
  });

  it('deploys, saves, redeploys, lists versions, rolls back and undeploys — Redis follows every step', async () => {
    const { project, base, create } = await setup();
    const created = await create(endpointBody()).expect(201);
    const id = created.body.id;

    const v1 = await t.http().post(`${base}/${id}/deploy`).set(owner.auth).expect(200);
    expect(v1.body).toMatchObject({
      status: 'live',
      live_version: 1,
      live_url: `${project.base_url}/orders`,
      has_undeployed_changes: false,
      diagnostics: [],
    });
    let published = await publishedProject(t.redis, project.id);
    // 1 created the project, 2 the draft (published for the preview address), 3 the deploy.
    expect(published?.revision).toBe(3);
    expect(published?.routes).toEqual([
      {
        endpoint_id: id,
        name: 'Orders',
        method: 'GET',
        path: '/orders',
        auth: 'none',
        query_params: [{ key: 'id', default: null }],
        version: 1,
        compiled: expect.objectContaining({}),
      },
    ]);
    const compiledV1 = published?.routes[0]?.compiled;

    // Save a change (new path and flow): the draft differs, the gateway still serves version 1.
    const saved = await t.http()
      .put(`${base}/${id}`)
      .set(owner.auth)
      .send(endpointBody({ path: '/orders-v2', auth: 'user', flow: respondFlow('v2') }))
      .expect(200);
    expect(saved.body).toMatchObject({ path: '/orders-v2', live_version: 1, live_url: `${project.base_url}/orders`, has_undeployed_changes: true });
    published = await publishedProject(t.redis, project.id);
    expect(published?.routes).toMatchObject([{ path: '/orders', version: 1, auth: 'none' }]);

    const v2 = await t.http().post(`${base}/${id}/deploy`).set(owner.auth).expect(200);
    expect(v2.body).toMatchObject({ live_version: 2, live_url: `${project.base_url}/orders-v2`, has_undeployed_changes: false });
    published = await publishedProject(t.redis, project.id);
    expect(published?.routes).toMatchObject([{ path: '/orders-v2', version: 2, auth: 'user' }]);
    expect(published?.routes[0]?.compiled).not.toEqual(compiledV1);

    // Deploying an unchanged draft makes no new version.
    await t.http().post(`${base}/${id}/deploy`).set(owner.auth).expect(200);
    const versions = await t.http().get(`${base}/${id}/versions`).set(owner.auth).expect(200);
    expect(versions.body.items.map((v: { version: number; live: boolean; path: string }) => [v.version, v.live, v.path])).toEqual([
      [2, true, '/orders-v2'],
      [1, false, '/orders'],
    ]);
    const one = await t.http().get(`${base}/${id}/versions/1`).set(owner.auth).expect(200);
    expect(one.body).toMatchObject({ version: 1, path: '/orders', live: false, flow: respondFlow('hello') });

    // Roll back to version 1: served again, draft untouched (so it differs from what is live).
    const rolled = await t.http().post(`${base}/${id}/versions/1/deploy`).set(owner.auth).expect(200);
    expect(rolled.body).toMatchObject({ live_version: 1, path: '/orders-v2', live_url: `${project.base_url}/orders`, has_undeployed_changes: true });
    published = await publishedProject(t.redis, project.id);
    expect(published?.routes).toMatchObject([{ path: '/orders', version: 1, auth: 'none' }]);
    expect(published?.routes[0]?.compiled).toEqual(compiledV1);

    await t.http().post(`${base}/${id}/versions/9/deploy`).set(owner.auth).expect(404);
    await t.http().get(`${base}/${id}/versions/abc`).set(owner.auth).expect(404);

    const undeployed = await t.http().post(`${base}/${id}/undeploy`).set(owner.auth).expect(200);
    expect(undeployed.body).toMatchObject({ status: 'draft', live_version: null, live_url: null, has_undeployed_changes: true });
    published = await publishedProject(t.redis, project.id);
    expect(published?.routes).toEqual([]);
    const before = published!.revision;

    // The versions stay; a rollback makes one live again.
    await t.http().post(`${base}/${id}/versions/2/deploy`).set(owner.auth).expect(200);
    published = await publishedProject(t.redis, project.id);
    expect(published?.routes).toMatchObject([{ version: 2 }]);
    expect(published!.revision).toBeGreaterThan(before);
  });

  it('refuses to deploy onto a route another live version still serves', async () => {
    const { project, base, create } = await setup();
    const first = await create(endpointBody()).expect(201);
    await t.http().post(`${base}/${first.body.id}/deploy`).set(owner.auth).expect(200);
    await t.http().put(`${base}/${first.body.id}`).set(owner.auth).send(endpointBody({ path: '/moved' })).expect(200);
    const second = await create(endpointBody({ name: 'Second' })).expect(201);
    const response = await t.http().post(`${base}/${second.body.id}/deploy`).set(owner.auth).expect(409);
    expect(response.body).toMatchObject({ code: 'conflict', details: [{ path: 'path', message: expect.stringContaining('GET /orders') }] });
    expect((await publishedProject(t.redis, project.id))?.routes).toMatchObject([{ endpoint_id: first.body.id }]);
  });

  it('lists endpoints and deletes one, taking a live one off the gateways', async () => {
    const { project, base, create } = await setup();
    const a = await create(endpointBody({ path: '/a' })).expect(201);
    const b = await create(endpointBody({ path: '/b' })).expect(201);
    await t.http().post(`${base}/${a.body.id}/deploy`).set(owner.auth).expect(200);
    await t.http().post(`${base}/${b.body.id}/deploy`).set(owner.auth).expect(200);
    const list = await t.http().get(base).set(owner.auth).expect(200);
    expect(list.body.items.map((e: { path: string; status: string }) => [e.path, e.status])).toEqual([
      ['/a', 'live'],
      ['/b', 'live'],
    ]);
    await t.http().delete(`${base}/${a.body.id}`).set(owner.auth).expect(200, { success: true, message: 'Endpoint deleted' });
    expect((await publishedProject(t.redis, project.id))?.routes.map((r) => r.path)).toEqual(['/b']);
    await t.http().get(`${base}/${a.body.id}`).set(owner.auth).expect(404);
    await t.http().delete(`${base}/${a.body.id}`).set(owner.auth).expect(404);
  });

  it('checks the Send Email sender against the verified domains at Deploy', async () => {
    const { project, base, create } = await setup();
    await t.http()
      .put(`/v1/projects/${project.id}/integrations/email`)
      .set(owner.auth)
      .send({ provider: 'sendgrid', api_key: 'SG.secret-secret-1234', verified_domains: ['shop.example'] })
      .expect(200);
    const flow = (from: string) => ({
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 } },
        { id: 'm1', type: 'send_email', position: { x: 0, y: 100 }, config: { to: 'a@b.example', from, subject: 'Hi', body: 'Hello' } },
        { id: 'r1', type: 'respond', position: { x: 0, y: 200 }, config: { body: { sent: true } } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'm1' },
        { id: 'e2', source: 'm1', target: 'r1' },
      ],
    });
    const bad = await create(endpointBody({ method: 'POST', flow: flow('Shop <orders@other.example>') })).expect(201);
    const refused = await t.http().post(`${base}/${bad.body.id}/deploy`).set(owner.auth).expect(400);
    expect(refused.body.details).toContainEqual(expect.objectContaining({ node_id: 'm1', field: 'from' }));
    const good = await create(endpointBody({ method: 'PUT', flow: flow('Shop <orders@shop.example>') })).expect(201);
    await t.http().post(`${base}/${good.body.id}/deploy`).set(owner.auth).expect(200);
  });

  it('answers unknown endpoints with 404 endpoint_not_found', async () => {
    const { base } = await setup();
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const response = await t.http().get(`${base}/${id}`).set(owner.auth).expect(404);
      expect(response.body).toEqual({ success: false, code: 'endpoint_not_found', message: 'Endpoint not found' });
      await t.http().post(`${base}/${id}/deploy`).set(owner.auth).expect(404);
    }
  });
});
