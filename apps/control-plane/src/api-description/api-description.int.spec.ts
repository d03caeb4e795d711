import { openApiKey } from '@flowgate/contracts';
import { validate } from '@readme/openapi-parser';
import { endpointBody, respondFlow } from '../testing/flows';
import { type TestAccount, type TestApp, useTestApp } from '../testing/test-app';

describe('GET /v1/projects/:id/openapi.json (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let owner: TestAccount;
  useTestApp((app, account) => ([t, owner] = [app, account]));

  async function liveEndpoint(projectId: string, body: Record<string, unknown>): Promise<string> {
    const created = await t.http().post(`/v1/projects/${projectId}/endpoints`).set(owner.auth).send(body).expect(201);
    await t.http().post(`/v1/projects/${projectId}/endpoints/${created.body.id}/deploy`).set(owner.auth).expect(200);
    return created.body.id as string;
  }

  const openApi = (projectId: string) => t.http().get(`/v1/projects/${projectId}/openapi.json`).set(owner.auth);

  it('describes exactly the live versions, and changes with deploy, undeploy, rollback and settings', async () => {
    const project = await t.createProject(owner, 'Shop API');
    const empty = await openApi(project.id).expect(200).expect('content-type', /application\/json/);
    expect(empty.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Shop API' }, servers: [{ url: project.base_url }], paths: {} });

    const orders = await liveEndpoint(project.id, endpointBody({ name: 'List orders', flow: respondFlow('v1') }));
    await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(endpointBody({ name: 'Draft only', path: '/drafts' })).expect(201);
    let doc = (await openApi(project.id).expect(200)).body;
    expect((await validate(structuredClone(doc))).valid).toBe(true);
    expect(Object.keys(doc.paths)).toEqual(['/orders']);
    expect(doc.paths['/orders'].get).toMatchObject({
      operationId: 'listOrders',
      summary: 'List orders',
      parameters: [{ name: 'id', in: 'query', required: false, schema: { type: 'string' } }],
    });
    expect(doc.paths['/orders'].get.responses['200'].content['application/json'].schema.properties.message).toEqual({ type: 'string', const: 'v1' });

    // A saved draft changes nothing until it is deployed.
    await t.http().put(`/v1/projects/${project.id}/endpoints/${orders}`).set(owner.auth).send(endpointBody({ name: 'List orders', flow: respondFlow('v2') })).expect(200);
    doc = (await openApi(project.id).expect(200)).body;
    expect(doc.paths['/orders'].get.responses['200'].content['application/json'].schema.properties.message.const).toBe('v1');
    await t.http().post(`/v1/projects/${project.id}/endpoints/${orders}/deploy`).set(owner.auth).expect(200);
    doc = (await openApi(project.id).expect(200)).body;
    expect(doc.paths['/orders'].get.responses['200'].content['application/json'].schema.properties.message.const).toBe('v2');

    await t.http().post(`/v1/projects/${project.id}/endpoints/${orders}/versions/1/deploy`).set(owner.auth).expect(200);
    doc = (await openApi(project.id).expect(200)).body;
    expect(doc.paths['/orders'].get.responses['200'].content['application/json'].schema.properties.message.const).toBe('v1');

    await t.http().patch(`/v1/projects/${project.id}`).set(owner.auth).send({ name: 'Shop' }).expect(200);
    expect((await openApi(project.id).expect(200)).body.info.title).toBe('Shop');
    await t.http().patch(`/v1/projects/${project.id}`).set(owner.auth).send({ require_auth: true }).expect(200);
    doc = (await openApi(project.id).expect(200)).body;
    expect(doc.paths['/orders'].get.security).toEqual([{ apiKey: [] }]);

    await t.http().post(`/v1/projects/${project.id}/endpoints/${orders}/undeploy`).set(owner.auth).expect(200);
    expect((await openApi(project.id).expect(200)).body.paths).toEqual({});
  });

  it('serves the text the publication wrote to Redis, and publishes it again when Redis lost it', async () => {
    const project = await t.createProject(owner);
    await liveEndpoint(project.id, endpointBody());
    const stored = await t.redis.get(openApiKey(project.id));
    const served = await openApi(project.id).expect(200);
    expect(served.text).toBe(stored);

    await t.redis.del(openApiKey(project.id));
    const again = await openApi(project.id).expect(200);
    expect(again.body.paths['/orders']).toBeDefined();
    expect(await t.redis.get(openApiKey(project.id))).toBe(again.text);
  });

  it("is a 404 for another account's project and needs a session", async () => {
    const project = await t.createProject(owner);
    const stranger = await t.signup();
    const response = await t.http().get(`/v1/projects/${project.id}/openapi.json`).set(stranger.auth).expect(404);
    expect(response.body).toMatchObject({ success: false, code: 'project_not_found' });
    await t.http().get(`/v1/projects/${project.id}/openapi.json`).expect(401);
  });
});
