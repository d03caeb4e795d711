import { freshnessKey, previewOpenApiKey } from '@flowgate/contracts';
import { SecretBox } from '@flowgate/platform';
import { PublicationService } from '../publication/publication.service';
import { randomBytes } from 'node:crypto';
import { endpointBody, respondFlow } from '../testing/flows';
import { type TestAccount, type TestApp, publishedProject, startTestApp } from '../testing/test-app';

const TOKEN = 'tok-live-5f2a9c81e0';
const PREVIEW_TOKEN = 'tok-preview-77b3d1';

/** Start → Set Variable reading the secret → Respond echoing it (what a careless author might do). */
const readingFlow = (name = 'API_TOKEN') => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 's1', type: 'set_variable', position: { x: 200, y: 0 }, config: { name: 'auth', value: `Bearer {secrets.${name}}` } },
    { id: 'r1', type: 'respond', position: { x: 400, y: 0 }, config: { status: 200, body: { sent: '{local.auth}' } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 's1' },
    { id: 'e2', source: 's1', target: 'r1' },
  ],
});

describe('secrets API (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
  });
  afterAll(async () => {
    await t.close();
  });

  const put = (projectId: string, name: string, body: Record<string, unknown>) => t.http().put(`/v1/projects/${projectId}/secrets/${name}`).set(owner.auth).send(body);

  it('sets (201), replaces (200) and lists secrets without ever answering a value; the gateways get them sealed', async () => {
    const project = await t.createProject(owner);
    const created = await put(project.id, 'API_TOKEN', { value: TOKEN, description: 'Billing API' }).expect(201);
    expect(created.body).toEqual({
      name: 'API_TOKEN',
      description: 'Billing API',
      has_preview_value: false,
      used_by: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const replaced = await put(project.id, 'API_TOKEN', { value: `${TOKEN}-2`, preview_value: PREVIEW_TOKEN }).expect(200);
    expect(replaced.body).toMatchObject({ name: 'API_TOKEN', description: 'Billing API', has_preview_value: true });
    const list = await t.http().get(`/v1/projects/${project.id}/secrets`).set(owner.auth).expect(200);
    expect(list.body.items.map((item: { name: string }) => item.name)).toEqual(['API_TOKEN']);

    const document = await publishedProject(t.redis, project.id);
    expect(document?.secrets?.map((secret) => secret.name)).toEqual(['API_TOKEN']);
    expect(await t.redis.get(freshnessKey(project.id))).toBe(String(document?.revision));
    const everything = JSON.stringify([created.body, replaced.body, list.body, document]);
    for (const value of [TOKEN, `${TOKEN}-2`, PREVIEW_TOKEN]) expect(everything).not.toContain(value);

    await put(project.id, 'API_TOKEN', { value: `${TOKEN}-3`, preview_value: null }).expect(200);
    expect((await t.http().get(`/v1/projects/${project.id}/secrets`).set(owner.auth).expect(200)).body.items[0].has_preview_value).toBe(false);
  });

  it.each([
    ['a lower-case name', 'api_token', { value: 'x' }, 'name'],
    ['a name starting with a digit', '9LIVES', { value: 'x' }, 'name'],
    ['an empty value', 'TOKEN', { value: '' }, 'value'],
    ['a value over 8 KiB', 'TOKEN', { value: 'x'.repeat(8 * 1024 + 1) }, 'value'],
    ['no value', 'TOKEN', {}, 'value'],
  ])('refuses %s with 400 naming the field', async (_case, name, body, path) => {
    const project = await t.createProject(owner);
    const response = await put(project.id, name, body).expect(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ path })] });
  });

  it('reports unknown names at Save and Deploy, and lists live readers; DELETE is 409 while one reads it, 204 with force', async () => {
    const project = await t.createProject(owner);
    const endpoint = (
      await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(endpointBody({ flow: readingFlow(), query_params: [] })).expect(201)
    ).body;
    expect(endpoint.diagnostics).toEqual([expect.objectContaining({ code: 'unknown_secret', node_id: 's1', field: 'value' })]);
    expect(endpoint.preview_url).toBe(`${project.base_url.replace(project.subdomain, `${project.subdomain}--preview`)}/orders`);
    const refused = await t.http().post(`/v1/projects/${project.id}/endpoints/${endpoint.id}/deploy`).set(owner.auth).expect(400);
    expect(refused.body).toMatchObject({ code: 'invalid_flow', details: [expect.objectContaining({ code: 'unknown_secret' })] });
    // A draft with an error is not served on the preview address.
    expect((await publishedProject(t.redis, project.id))?.preview_routes).toEqual([]);

    await put(project.id, 'API_TOKEN', { value: TOKEN }).expect(201);
    const saved = await t.http().put(`/v1/projects/${project.id}/endpoints/${endpoint.id}`).set(owner.auth).send(endpointBody({ flow: readingFlow(), query_params: [] })).expect(200);
    expect(saved.body.diagnostics).toEqual([]);
    expect((await publishedProject(t.redis, project.id))?.preview_routes?.map((route) => route.path)).toEqual(['/orders']);
    expect(JSON.parse((await t.redis.get(previewOpenApiKey(project.id)))!).servers[0].url).toContain(`${project.subdomain}--preview`);
    await t.http().post(`/v1/projects/${project.id}/endpoints/${endpoint.id}/deploy`).set(owner.auth).expect(200);
    const list = await t.http().get(`/v1/projects/${project.id}/secrets`).set(owner.auth).expect(200);
    expect(list.body.items[0].used_by).toEqual([{ endpoint_id: endpoint.id, name: 'Orders' }]);

    const inUse = await t.http().delete(`/v1/projects/${project.id}/secrets/API_TOKEN`).set(owner.auth).expect(409);
    expect(inUse.body).toMatchObject({ code: 'secret_in_use', details: [expect.objectContaining({ endpoint_id: endpoint.id, name: 'Orders' })] });
    expect(inUse.body.message).toContain('Orders');
    await t.http().delete(`/v1/projects/${project.id}/secrets/API_TOKEN`).query({ force: 'true' }).set(owner.auth).expect(204);
    expect((await t.http().get(`/v1/projects/${project.id}/secrets`).set(owner.auth).expect(200)).body.items).toEqual([]);
    await t.http().delete(`/v1/projects/${project.id}/secrets/API_TOKEN`).set(owner.auth).expect(404);
    expect((await publishedProject(t.redis, project.id))?.secrets).toEqual([]);
  });

  it('masks the value in a test run (trace, response, error) and uses the preview value there; never in exports, versions, OpenAPI', async () => {
    const project = await t.createProject(owner);
    await put(project.id, 'API_TOKEN', { value: TOKEN, preview_value: PREVIEW_TOKEN }).expect(201);
    const endpoint = (
      await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(endpointBody({ flow: readingFlow(), query_params: [] })).expect(201)
    ).body;
    const run = await t.http().post(`/v1/projects/${project.id}/endpoints/${endpoint.id}/test-runs`).set(owner.auth).send({ request: {} }).expect(200);
    expect(run.body.response.body).toEqual({ sent: 'Bearer [secret:API_TOKEN]' });
    expect(run.body.trace[0]).toMatchObject({ node_id: 's1', output: 'Bearer [secret:API_TOKEN]' });
    await t.http().post(`/v1/projects/${project.id}/endpoints/${endpoint.id}/deploy`).set(owner.auth).expect(200);

    const answers = await Promise.all([
      t.http().get(`/v1/projects/${project.id}/endpoints/${endpoint.id}`).set(owner.auth),
      t.http().get(`/v1/projects/${project.id}/endpoints`).set(owner.auth),
      t.http().get(`/v1/projects/${project.id}/endpoints/${endpoint.id}/export`).set(owner.auth),
      t.http().get(`/v1/projects/${project.id}/endpoints/${endpoint.id}/versions`).set(owner.auth),
      t.http().get(`/v1/projects/${project.id}/openapi.json`).set(owner.auth),
      t.http().get(`/v1/projects/${project.id}/secrets`).set(owner.auth),
    ]);
    const text = answers.map((answer) => answer.text).join('\n') + JSON.stringify(await publishedProject(t.redis, project.id));
    expect(text).toContain('{secrets.API_TOKEN}');
    for (const value of [TOKEN, PREVIEW_TOKEN]) expect(text).not.toContain(value);
  });

  it('masks a value typed into a flow in the diagnostics of Save', async () => {
    const project = await t.createProject(owner);
    await put(project.id, 'API_TOKEN', { value: TOKEN }).expect(201);
    const flow = respondFlow('x');
    // Send Email's recipient check quotes what was typed: the value is there to mask.
    const email = { id: 'm1', type: 'send_email', position: { x: 0, y: 400 }, config: { to: `not an address ${TOKEN}`, from: 'Shop <shop@shop.example>', subject: 'Hi', body: 'Hello' } };
    const body = endpointBody({ query_params: [], flow: { ...flow, nodes: [...flow.nodes, email] } });
    const saved = await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(body).expect(201);
    const recipient = (saved.body.diagnostics as { code: string; message: string }[]).find((d) => d.code === 'invalid_recipient');
    expect(recipient?.message).toContain('[secret:API_TOKEN]');
    expect(JSON.stringify(saved.body.diagnostics)).not.toContain(TOKEN);
  });

  it("answers 404 for another account's project and refuses a 101st secret", async () => {
    const project = await t.createProject(owner);
    const stranger = await t.signup();
    await t.http().put(`/v1/projects/${project.id}/secrets/TOKEN`).set(stranger.auth).send({ value: 'x' }).expect(404);
    await t.http().get(`/v1/projects/${project.id}/secrets`).set(stranger.auth).expect(404);
    await t.prisma.secret.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({ projectId: project.id, name: `S${i}`, valueEncrypted: randomBytes(8).toString('hex') })),
    });
    const refused = await put(project.id, 'ONE_MORE', { value: 'x' }).expect(422);
    expect(refused.body.code).toBe('secret_limit_reached');
  });

  it('rotates with FLOWGATE_ENCRYPTION_KEY_PREVIOUS: values sealed with the old key are sealed again with the new one when published', async () => {
    const project = await t.createProject(owner);
    await put(project.id, 'API_TOKEN', { value: TOKEN, preview_value: PREVIEW_TOKEN }).expect(201);
    const before = await t.prisma.secret.findFirstOrThrow({ where: { projectId: project.id } });
    const newKey = randomBytes(32).toString('hex');
    const rotated = await startTestApp((config) => ({ ...config, encryptionKey: newKey, previousEncryptionKey: t.config.encryptionKey }));
    try {
      await rotated.app.get(PublicationService).republishProject(project.id);
      const after = await t.prisma.secret.findFirstOrThrow({ where: { projectId: project.id } });
      const newBox = new SecretBox(newKey);
      expect([newBox.decrypt(after.valueEncrypted), newBox.decrypt(after.previewValueEncrypted!)]).toEqual([TOKEN, PREVIEW_TOKEN]);
      expect(new SecretBox(t.config.encryptionKey).open(after.valueEncrypted)).toBeNull();
      // Rotation is not an edit: the time the user sees stays.
      expect(after.updatedAt).toEqual(before.updatedAt);
      const published = (await publishedProject(t.redis, project.id))!.secrets![0]!;
      expect(newBox.decrypt(published.value_encrypted)).toBe(TOKEN);
    } finally {
      await rotated.close();
    }
  });
});
