import { endpointBody } from './testing/flows';
import { type TestAccount, type TestApp, publishedProject, startTestApp } from './testing/test-app';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Account B must not reach anything of account A: every route answers 404, and A's data stays as it was. */
describe('tenant isolation (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let project: { id: string; subdomain: string };
  let endpointId: string;
  let keyId: string;

  beforeAll(async () => {
    t = await startTestApp();
    a = await t.signup();
    b = await t.signup();
    project = await t.createProject(a);
    const endpoint = await t.http().post(`/v1/projects/${project.id}/endpoints`).set(a.auth).send(endpointBody()).expect(201);
    endpointId = endpoint.body.id;
    await t.http().post(`/v1/projects/${project.id}/endpoints/${endpointId}/deploy`).set(a.auth).expect(200);
    await t.http()
      .put(`/v1/projects/${project.id}/integrations/text-generation`)
      .set(a.auth)
      .send({ provider: 'anthropic', api_key: 'sk-ant-secret-0000-1111' })
      .expect(200);
    await t.http().put(`/v1/projects/${project.id}/secrets/API_TOKEN`).set(a.auth).send({ value: 'owner-value' }).expect(201);
    const key = await t.http().post(`/v1/projects/${project.id}/api-keys`).set(a.auth).send({ name: 'k' }).expect(201);
    keyId = key.body.key_data.id;
  });
  afterAll(() => t.close());

  const routes = (): Array<[Method, string, Record<string, unknown>?]> => {
    const p = `/v1/projects/${project.id}`;
    const e = `${p}/endpoints/${endpointId}`;
    return [
      ['get', p],
      ['patch', p, { name: 'stolen', require_auth: true }],
      ['delete', p],
      ['get', `${p}/integrations`],
      ['get', `${p}/integrations/text-generation`],
      ['put', `${p}/integrations/text-generation`, { provider: 'anthropic', api_key: 'sk-ant-attacker-0000' }],
      ['delete', `${p}/integrations/text-generation`],
      ['get', `${p}/endpoints`],
      ['post', `${p}/endpoints`, endpointBody({ path: '/intruder' })],
      ['get', e],
      ['put', e, endpointBody({ path: '/hijacked' })],
      ['delete', e],
      ['post', `${e}/deploy`],
      ['post', `${e}/undeploy`],
      ['get', `${e}/versions`],
      ['get', `${e}/versions/1`],
      ['post', `${e}/versions/1/deploy`],
      ['get', `${p}/api-keys`],
      ['post', `${p}/api-keys`, { name: 'intruder', permission: 'admin' }],
      ['delete', `${p}/api-keys/${keyId}`],
      ['get', `${p}/logs`],
      ['get', `${p}/secrets`],
      ['put', `${p}/secrets/API_TOKEN`, { value: 'attacker-value' }],
      ['delete', `${p}/secrets/API_TOKEN?force=true`],
      ['post', `${p}/assistant/drafts`, { prompt: 'An endpoint that answers hello', endpoint_id: endpointId }],
    ];
  };

  it('answers 404 project_not_found to another account on every route of the project', async () => {
    for (const [method, url, body] of routes()) {
      const call = t.http()[method](url).set(b.auth);
      const response = await (body ? call.send(body) : call);
      expect({ method, url, status: response.status, code: response.body.code }).toEqual({ method, url, status: 404, code: 'project_not_found' });
    }
  });

  it('left everything of account A as it was', async () => {
    const read = await t.http().get(`/v1/projects/${project.id}`).set(a.auth).expect(200);
    expect(read.body).toMatchObject({ name: 'Test project', require_auth: false });
    const endpoints = await t.http().get(`/v1/projects/${project.id}/endpoints`).set(a.auth).expect(200);
    expect(endpoints.body.items.map((e: { path: string; live_version: number }) => [e.path, e.live_version])).toEqual([['/orders', 1]]);
    const keys = await t.http().get(`/v1/projects/${project.id}/api-keys`).set(a.auth).expect(200);
    expect(keys.body.items.map((k: { id: string }) => k.id)).toEqual([keyId]);
    const integration = await t.http().get(`/v1/projects/${project.id}/integrations/text-generation`).set(a.auth).expect(200);
    expect(integration.body.api_key_masked).toBe('••••1111');
    // Revisions: the project, its endpoint (published for the preview address), the deploy, the integration, the secret.
    expect(await publishedProject(t.redis, project.id)).toMatchObject({ require_auth: false, revision: 5, routes: [{ path: '/orders' }], secrets: [{ name: 'API_TOKEN' }] });
  });

  it('does not list another account’s projects', async () => {
    const list = await t.http().get('/v1/projects').set(b.auth).expect(200);
    expect(list.body.items).toEqual([]);
  });
});
