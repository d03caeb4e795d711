/**
 * The limits of one project on the real control plane: endpoints per project,
 * size of one flow, size of the live configuration, and Save/Deploy/Import per account per
 * minute. Small limits here; the defaults are in the README.
 */
import type { ControlPlaneConfig } from '../config/control-plane.config';
import { endpointBody, respondFlow } from '../testing/flows';
import { type TestAccount, type TestApp, publishedProject, startTestApp } from '../testing/test-app';

const withLimits =
  (limits: Partial<ControlPlaneConfig['projectLimits']>) =>
  (config: ControlPlaneConfig): ControlPlaneConfig => ({ ...config, projectLimits: { ...config.projectLimits, ...limits } });

/** A flow of about `bytes` bytes of JSON. */
const flowOf = (bytes: number) => respondFlow('x'.repeat(bytes - 200));

describe('limits of one project: sizes', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await startTestApp(withLimits({ maxEndpoints: 2, maxFlowBytes: 4096, maxLiveBytes: 6000 }));
    owner = await t.signup();
  });
  afterAll(() => t.close());

  const create = (projectId: string, body: Record<string, unknown>) => t.http().post(`/v1/projects/${projectId}/endpoints`).set(owner.auth).send(body);

  it('refuses an endpoint past PROJECT_MAX_ENDPOINTS with 422 too_many_endpoints, by hand or by import', async () => {
    const project = await t.createProject(owner);
    await create(project.id, endpointBody({ path: '/a' })).expect(201);
    await create(project.id, endpointBody({ path: '/b' })).expect(201);
    const third = await create(project.id, endpointBody({ path: '/c' }));
    expect(third.status).toBe(422);
    expect(third.body).toEqual({ success: false, code: 'too_many_endpoints', message: 'A project may have at most 2 endpoints (PROJECT_MAX_ENDPOINTS); delete one first' });
    const imported = await t
      .http()
      .post(`/v1/projects/${project.id}/endpoints/import`)
      .set(owner.auth)
      .send({ flowgate_export: 1, endpoint: endpointBody({ path: '/d' }) });
    expect(imported.body.code).toBe('too_many_endpoints');
    const listed = await t.http().get(`/v1/projects/${project.id}/endpoints`).set(owner.auth).expect(200);
    expect(listed.body.items.map((item: { path: string }) => item.path)).toEqual(['/a', '/b']);
  });

  it('refuses a flow past PROJECT_MAX_FLOW_BYTES with 413 payload_too_large on create, Save and test run; the draft is unchanged', async () => {
    const project = await t.createProject(owner);
    const tooBig = endpointBody({ flow: flowOf(5000) });
    const created = await create(project.id, tooBig);
    expect(created.status).toBe(413);
    expect(created.body).toEqual({
      success: false,
      code: 'payload_too_large',
      message: expect.stringMatching(/^The flow is 5,0\d\d bytes; one flow may have at most 4,096 \(PROJECT_MAX_FLOW_BYTES\)$/),
      details: [{ path: 'flow', message: 'must be at most 4,096 bytes' }],
    });
    const endpoint = (await create(project.id, endpointBody()).expect(201)).body;
    const saved = await t.http().put(`/v1/projects/${project.id}/endpoints/${endpoint.id}`).set(owner.auth).send(tooBig);
    expect(saved.status).toBe(413);
    const testRun = await t.http().post(`/v1/projects/${project.id}/endpoints/${endpoint.id}/test-runs`).set(owner.auth).send({ flow: tooBig.flow, request: {} });
    expect(testRun.status).toBe(413);
    const now = await t.http().get(`/v1/projects/${project.id}/endpoints/${endpoint.id}`).set(owner.auth).expect(200);
    expect(now.body.flow).toEqual(respondFlow('hello'));
  });

  it('refuses a Deploy that would take the live configuration past PROJECT_MAX_LIVE_BYTES with 422 project_too_large', async () => {
    const project = await t.createProject(owner);
    const first = (await create(project.id, endpointBody({ path: '/first', flow: flowOf(3500) })).expect(201)).body;
    const second = (await create(project.id, endpointBody({ path: '/second', flow: flowOf(3500) })).expect(201)).body;
    await t.http().post(`/v1/projects/${project.id}/endpoints/${first.id}/deploy`).set(owner.auth).expect(200);
    const refused = await t.http().post(`/v1/projects/${project.id}/endpoints/${second.id}/deploy`).set(owner.auth);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      success: false,
      code: 'project_too_large',
      message: expect.stringMatching(/^The live endpoints of this project would hold 7,\d{3} bytes; the limit is 6,000 \(PROJECT_MAX_LIVE_BYTES\)\./),
    });
    expect((await publishedProject(t.redis, project.id))?.routes.map((route) => route.path)).toEqual(['/first']);
    // Room is made by undeploying the other one.
    await t.http().post(`/v1/projects/${project.id}/endpoints/${first.id}/undeploy`).set(owner.auth).expect(200);
    await t.http().post(`/v1/projects/${project.id}/endpoints/${second.id}/deploy`).set(owner.auth).expect(200);
    expect((await publishedProject(t.redis, project.id))?.routes.map((route) => route.path)).toEqual(['/second']);
    // A rollback to a version that no longer fits beside the live one is refused the same way.
    const rollback = await t.http().post(`/v1/projects/${project.id}/endpoints/${first.id}/versions/1/deploy`).set(owner.auth);
    expect(rollback.body.code).toBe('project_too_large');
  });
});

describe('limits of one project: Save, Deploy and Import per account per minute', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(withLimits({ perMinute: { save: 3, deploy: 2, import: 2 } }));
  });
  afterAll(() => t.close());

  const expectRateLimited = (answer: { status: number; body: unknown; headers: Record<string, string> }, message: RegExp) => {
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({ success: false, code: 'rate_limited', message: expect.stringMatching(message) });
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(60);
  };

  it('counts creations and Saves together, per account', async () => {
    const owner = await t.signup();
    const project = await t.createProject(owner);
    const endpoint = (await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(endpointBody()).expect(201)).body;
    for (const name of ['one', 'two']) await t.http().put(`/v1/projects/${project.id}/endpoints/${endpoint.id}`).set(owner.auth).send(endpointBody({ name })).expect(200);
    const fourth = await t.http().put(`/v1/projects/${project.id}/endpoints/${endpoint.id}`).set(owner.auth).send(endpointBody({ name: 'three' }));
    expectRateLimited(fourth, /^At most 3 saves per minute; try again in \d+ s$/);
    expect((await t.http().get(`/v1/projects/${project.id}/endpoints/${endpoint.id}`).set(owner.auth).expect(200)).body.name).toBe('two');
    // Another account is not affected.
    const other = await t.signup();
    const theirs = await t.createProject(other);
    await t.http().post(`/v1/projects/${theirs.id}/endpoints`).set(other.auth).send(endpointBody()).expect(201);
  });

  it('limits Deploy (with undeploy and rollback) and Import', async () => {
    const owner = await t.signup();
    const project = await t.createProject(owner);
    const endpoint = (await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(endpointBody()).expect(201)).body;
    const base = `/v1/projects/${project.id}/endpoints/${endpoint.id}`;
    await t.http().post(`${base}/deploy`).set(owner.auth).expect(200);
    await t.http().post(`${base}/undeploy`).set(owner.auth).expect(200);
    expectRateLimited(await t.http().post(`${base}/deploy`).set(owner.auth), /^At most 2 deploys per minute; try again in \d+ s$/);
    expect((await publishedProject(t.redis, project.id))?.routes).toEqual([]);

    const file = { flowgate_export: 1, endpoint: endpointBody({ path: '/imported' }) };
    const importOne = (path: string) =>
      t.http().post(`/v1/projects/${project.id}/endpoints/import`).set(owner.auth).send({ ...file, endpoint: { ...file.endpoint, path } });
    await importOne('/i1').expect(201);
    await importOne('/i2').expect(201);
    expectRateLimited(await importOne('/i3'), /^At most 2 imports per minute; try again in \d+ s$/);
  });
});
