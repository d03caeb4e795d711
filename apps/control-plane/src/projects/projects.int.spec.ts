import { apiKeyRecordKey, projectDeletedKey, subdomainKey } from '@flowgate/contracts';
import { sha256Hex } from '@flowgate/platform';
import { type TestAccount, type TestApp, publishedProject, startTestApp, useTestApp, uniqueSubdomain } from '../testing/test-app';

describe('projects (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let owner: TestAccount;
  useTestApp((app, account) => ([t, owner] = [app, account]));

  it('creates a project with its base_url and publishes it before answering', async () => {
    const subdomain = uniqueSubdomain();
    const response = await t.http().post('/v1/projects').set(owner.auth).send({ name: ' Shop ', subdomain: subdomain.toUpperCase() }).expect(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      name: 'Shop',
      subdomain,
      require_auth: false,
      base_url: t.config.gatewayPublicUrl.replace('{subdomain}', subdomain),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await t.redis.get(subdomainKey(subdomain))).toBe(response.body.id);
    expect(await publishedProject(t.redis, response.body.id)).toEqual({
      id: response.body.id,
      subdomain,
      require_auth: false,
      revision: 1,
      integrations: { text_generation: null, email: null },
      routes: [],
      secrets: [],
      preview_routes: [],
      tables: [],
      functions: [],
      preview_functions: [],
      schedules: [],
    });
  });

  it('lists only the account’s own projects', async () => {
    const other = await t.signup();
    const mine = await t.createProject(owner, 'Mine');
    await t.createProject(other, 'Theirs');
    const list = await t.http().get('/v1/projects').set(owner.auth).expect(200);
    const ids = list.body.items.map((p: { id: string }) => p.id);
    expect(ids).toContain(mine.id);
    expect(list.body.items.every((p: { name: string }) => p.name !== 'Theirs')).toBe(true);
  });

  it.each([
    ['ab', 'must be at least 3 characters'],
    ['1abc', 'must start with a letter'],
    ['abc-', 'must not end with a hyphen'],
    ['ab_c', 'must start with a letter'],
    ['xn--abc', 'hyphens in the third and fourth'],
    ['admin', 'is reserved'],
    ['www', 'is reserved'],
    ['dashboard', 'is reserved'],
    ['a'.repeat(55), 'at most 54'],
    ['shop--api', 'two hyphens in a row'],
  ])('refuses the subdomain %p with 400 details', async (subdomain, message) => {
    const response = await t.http().post('/v1/projects').set(owner.auth).send({ name: 'x', subdomain }).expect(400);
    expect(response.body).toMatchObject({ success: false, code: 'invalid_request' });
    expect(response.body.details).toEqual([{ path: 'subdomain', message: expect.stringContaining(message) }]);
  });

  it('refuses a missing name and a taken subdomain', async () => {
    const missing = await t.http().post('/v1/projects').set(owner.auth).send({ subdomain: uniqueSubdomain() }).expect(400);
    expect(missing.body.details).toEqual([{ path: 'name', message: expect.any(String) }]);
    const taken = await t.createProject(owner);
    const other = await t.signup();
    const conflict = await t.http().post('/v1/projects').set(other.auth).send({ name: 'x', subdomain: taken.subdomain }).expect(409);
    expect(conflict.body).toMatchObject({ code: 'conflict', details: [{ path: 'subdomain', message: 'is already taken' }] });
  });

  it('renames without touching what is served', async () => {
    const project = await t.createProject(owner);
    const response = await t.http().patch(`/v1/projects/${project.id}`).set(owner.auth).send({ name: 'Renamed' }).expect(200);
    expect(response.body.name).toBe('Renamed');
    expect((await publishedProject(t.redis, project.id))?.revision).toBe(1);
  });

  it('moves the subdomain atomically: the new one serves, the old one is gone, revision bumped', async () => {
    const project = await t.createProject(owner);
    const next = uniqueSubdomain();
    const response = await t.http().patch(`/v1/projects/${project.id}`).set(owner.auth).send({ subdomain: next }).expect(200);
    expect(response.body).toMatchObject({ subdomain: next, base_url: t.config.gatewayPublicUrl.replace('{subdomain}', next) });
    expect(await t.redis.get(subdomainKey(next))).toBe(project.id);
    expect(await t.redis.exists(subdomainKey(project.subdomain))).toBe(0);
    expect(await publishedProject(t.redis, project.id)).toMatchObject({ subdomain: next, revision: 2 });
    // The old name is free again.
    await t.http().post('/v1/projects').set(owner.auth).send({ name: 'again', subdomain: project.subdomain }).expect(201);
  });

  it('publishes a require_auth toggle before answering', async () => {
    const project = await t.createProject(owner);
    await t.http().patch(`/v1/projects/${project.id}`).set(owner.auth).send({ require_auth: true }).expect(200);
    expect(await publishedProject(t.redis, project.id)).toMatchObject({ require_auth: true, revision: 2 });
    await t.http().patch(`/v1/projects/${project.id}`).set(owner.auth).send({ require_auth: false }).expect(200);
    expect(await publishedProject(t.redis, project.id)).toMatchObject({ require_auth: false, revision: 3 });
  });

  it('keeps everything as it was when a subdomain change conflicts', async () => {
    const first = await t.createProject(owner);
    const second = await t.createProject(owner);
    await t.http().patch(`/v1/projects/${second.id}`).set(owner.auth).send({ subdomain: first.subdomain, require_auth: true }).expect(409);
    expect(await t.redis.get(subdomainKey(second.subdomain))).toBe(second.id);
    expect(await t.redis.get(subdomainKey(first.subdomain))).toBe(first.id);
    expect(await publishedProject(t.redis, second.id)).toMatchObject({ subdomain: second.subdomain, require_auth: false, revision: 1 });
    const reread = await t.http().get(`/v1/projects/${second.id}`).set(owner.auth).expect(200);
    expect(reread.body).toMatchObject({ subdomain: second.subdomain, require_auth: false });
  });

  it('validates PATCH bodies', async () => {
    const project = await t.createProject(owner);
    const response = await t.http().patch(`/v1/projects/${project.id}`).set(owner.auth).send({ require_auth: 'yes', name: '' }).expect(400);
    expect(response.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['name', 'require_auth']);
  });

  it('deletes a project with everything it published', async () => {
    const project = await t.createProject(owner);
    const key = await t.http().post(`/v1/projects/${project.id}/api-keys`).set(owner.auth).send({ name: 'k' }).expect(201);
    const keyRecord = apiKeyRecordKey(project.id, sha256Hex(key.body.key));
    expect(await t.redis.exists(keyRecord)).toBe(1);
    await t.http().delete(`/v1/projects/${project.id}`).set(owner.auth).expect(200, { success: true, message: 'Project deleted' });
    expect(await t.redis.exists(subdomainKey(project.subdomain))).toBe(0);
    expect(await publishedProject(t.redis, project.id)).toBeNull();
    expect(await t.redis.exists(keyRecord)).toBe(0);
    // The marker that tells gateways "deleted" from "Redis lost it".
    expect(await t.redis.exists(projectDeletedKey(project.id))).toBe(1);
    await t.http().get(`/v1/projects/${project.id}`).set(owner.auth).expect(404);
    expect(await t.prisma.apiKey.count({ where: { projectId: project.id } })).toBe(0);
  });

  it('answers unknown and malformed ids with 404 project_not_found', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await t.http().get(`/v1/projects/${id}`).set(owner.auth).expect(404);
      expect(response.body).toEqual({ success: false, code: 'project_not_found', message: 'Project not found' });
    }
  });

  it('requires a session', async () => {
    await t.http().get('/v1/projects').expect(401);
  });
});

describe('projects when Redis cannot be written', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp((config) => ({ ...config, redisUrl: 'redis://127.0.0.1:1' }));
  });
  afterAll(() => t.close());

  it('refuses the change with 503 and leaves PostgreSQL unchanged', async () => {
    const account = await t.signup();
    const subdomain = uniqueSubdomain();
    const response = await t.http().post('/v1/projects').set(account.auth).send({ name: 'x', subdomain }).expect(503);
    expect(response.body).toMatchObject({ success: false, code: 'unavailable' });
    expect(await t.prisma.project.count({ where: { subdomain } })).toBe(0);
  });
});
