import { endpointBody, respondFlow } from '../testing/flows';
import { type TestAccount, type TestApp, publishedProject, useTestApp } from '../testing/test-app';

describe('endpoints as files: export and import (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let owner: TestAccount;
  useTestApp((app, account) => ([t, owner] = [app, account]));

  const importInto = (projectId: string, file: unknown) => t.http().post(`/v1/projects/${projectId}/endpoints/import`).set(owner.auth).send(file as object);

  async function exported(body: Record<string, unknown>) {
    const project = await t.createProject(owner);
    const created = await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(body).expect(201);
    const file = await t.http().get(`/v1/projects/${project.id}/endpoints/${created.body.id}/export`).set(owner.auth).expect(200);
    return { project, endpoint: created.body, file: file.body, response: file };
  }

  it('exports the draft as {flowgate_export: 1, endpoint} and imports it into another project as a new draft', async () => {
    const body = endpointBody({ name: 'Orders', auth: 'user', query_params: [{ key: 'id', default: '7' }], flow: respondFlow('hello') });
    const { file, response } = await exported(body);
    expect(response.headers['content-disposition']).toMatch(/^attachment/);
    expect(file).toEqual({
      flowgate_export: 1,
      endpoint: { name: 'Orders', method: 'GET', path: '/orders', auth: 'user', query_params: [{ key: 'id', default: '7' }], flow: respondFlow('hello') },
    });
    const target = await t.createProject(owner);
    const imported = await importInto(target.id, file).expect(201);
    expect(imported.body).toMatchObject({ ...file.endpoint, project_id: target.id, status: 'draft', live_version: null, live_url: null, diagnostics: [] });
    // A draft, never live: nothing is published until it is deployed.
    expect((await publishedProject(t.redis, target.id))?.routes).toEqual([]);
    const listed = await t.http().get(`/v1/projects/${target.id}/endpoints`).set(owner.auth).expect(200);
    expect(listed.body.items.map((item: { path: string }) => item.path)).toEqual(['/orders']);
  });

  it('refuses a file whose method and path the project already has with 409 path_taken', async () => {
    const { project, file } = await exported(endpointBody());
    const response = await importInto(project.id, file).expect(409);
    expect(response.body).toMatchObject({ success: false, code: 'path_taken', details: [{ path: 'endpoint.path', message: 'GET /orders is taken' }] });
    // Another method at the same path is another endpoint.
    await importInto(project.id, { ...file, endpoint: { ...file.endpoint, method: 'POST' } }).expect(201);
  });

  type ExportFile = { flowgate_export?: unknown; endpoint: { flow: { nodes: unknown[] } } & Record<string, unknown> };
  const withFlow = (file: ExportFile, flow: unknown): ExportFile => ({ ...file, endpoint: { ...file.endpoint, flow } as ExportFile['endpoint'] });
  const blocks = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `n${i}`, type: 'start', position: { x: 0, y: 0 } }));
  const cases: Array<[string, string, (file: ExportFile) => unknown, RegExp]> = [
    ['no version', 'flowgate_export', (file) => ({ endpoint: file.endpoint }), /not a Flowgate endpoint export/],
    ['an unknown version', 'flowgate_export', (file) => ({ ...file, flowgate_export: 2 }), /version this Flowgate cannot read/],
    ['no endpoint', 'endpoint', () => ({ flowgate_export: 1 }), /./],
    [
      'an unknown block type',
      'endpoint.flow.nodes.2.type',
      (file) => withFlow(file, { nodes: [...file.endpoint.flow.nodes, { id: 'x', type: 'run_shell', position: { x: 0, y: 0 } }], edges: [] }),
      /"run_shell" is not a block type/,
    ],
    ['10 000 blocks (over the save limit)', 'endpoint.flow.nodes', (file) => withFlow(file, { nodes: blocks(10_000), edges: [] }), /./],
    ['a reserved path', 'endpoint.path', (file) => ({ ...file, endpoint: { ...file.endpoint, path: '/admin/keys' } }), /reserved/],
    ['a string for the flow', 'endpoint.flow', (file) => withFlow(file, 'rm -rf'), /./],
  ];
  it.each(cases)('refuses a file with %s: 400 naming %s', async (_what, path, change, message) => {
    const { project, file } = await exported(endpointBody());
    const response = await importInto(project.id, change(file as ExportFile)).expect(400);
    expect(response.body).toMatchObject({ success: false, code: 'invalid_request' });
    expect(response.body.details).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  it('refuses a file nested too deep (400 invalid_json) and one over the body limit (413)', async () => {
    const project = await t.createProject(owner);
    const deep = '{"flowgate_export":1,"endpoint":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    const tooDeep = await t.http().post(`/v1/projects/${project.id}/endpoints/import`).set(owner.auth).set('content-type', 'application/json').send(deep).expect(400);
    expect(tooDeep.body).toMatchObject({ success: false, code: 'invalid_json' });
    const huge = JSON.stringify({ flowgate_export: 1, endpoint: { ...endpointBody(), name: 'x'.repeat(2 * 1024 * 1024) } });
    const tooBig = await t.http().post(`/v1/projects/${project.id}/endpoints/import`).set(owner.auth).set('content-type', 'application/json').send(huge).expect(413);
    expect(tooBig.body).toMatchObject({ success: false, code: 'payload_too_large' });
    const notJson = await t.http().post(`/v1/projects/${project.id}/endpoints/import`).set(owner.auth).set('content-type', 'application/json').send('{"flowgate_export": 1,').expect(400);
    expect(notJson.body).toMatchObject({ success: false, code: 'invalid_json' });
  });

  it("is a 404 for another account's project or endpoint", async () => {
    const { project, endpoint, file } = await exported(endpointBody());
    const stranger = await t.signup();
    await t.http().get(`/v1/projects/${project.id}/endpoints/${endpoint.id}/export`).set(stranger.auth).expect(404);
    await t.http().post(`/v1/projects/${project.id}/endpoints/import`).set(stranger.auth).send(file).expect(404);
  });
});
