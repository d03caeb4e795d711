import { apiKeyRecordKey, isWellFormedApiKey, rateLimitKey } from '@flowgate/contracts';
import { sha256Hex } from '@flowgate/platform';
import { type TestAccount, type TestApp, startTestApp } from '../testing/test-app';

describe('API keys: dashboard and internal relay API (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let service: { Authorization: string };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
    service = { Authorization: `Bearer ${t.config.serviceToken}` };
  });
  afterAll(() => t.close());

  const keyData = {
    id: expect.any(String),
    name: expect.any(String),
    last_used_at: null,
    created_at: expect.any(String),
    ratelimit_min: expect.any(Number),
    permission: expect.any(String),
  };

  it('creates a key: the secret once, with prefix and checksum; only its SHA-256 is stored; published before the answer', async () => {
    const project = await t.createProject(owner);
    const response = await t.http().post(`/v1/projects/${project.id}/api-keys`).set(owner.auth).send({ name: 'Server' }).expect(201);
    expect(response.body).toEqual({ success: true, key: expect.any(String), key_data: { ...keyData, name: 'Server', ratelimit_min: 60, permission: 'user' } });
    const secret: string = response.body.key;
    expect(isWellFormedApiKey(secret)).toBe(true);

    const stored = await t.prisma.apiKey.findUniqueOrThrow({ where: { id: response.body.key_data.id } });
    expect(stored.keyHash).toBe(sha256Hex(secret));
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(await t.redis.hgetall(apiKeyRecordKey(project.id, sha256Hex(secret)))).toEqual({
      id: stored.id,
      project_id: project.id,
      permission: 'user',
      ratelimit_min: '60',
    });

    const list = await t.http().get(`/v1/projects/${project.id}/api-keys`).set(owner.auth).expect(200);
    expect(list.body.items).toEqual([{ ...response.body.key_data, key_prefix: secret.slice(0, 10) }]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it('shows last_used_at from the later of PostgreSQL and the gateway’s last_used_ms', async () => {
    const project = await t.createProject(owner);
    const created = await t.http().post(`/v1/projects/${project.id}/api-keys`).set(owner.auth).send({ name: 'k' }).expect(201);
    const record = apiKeyRecordKey(project.id, sha256Hex(created.body.key));
    const dbTime = new Date('2030-01-01T00:00:00.000Z');
    await t.prisma.apiKey.update({ where: { id: created.body.key_data.id }, data: { lastUsedAt: dbTime } });
    let list = await t.http().get(`/v1/projects/${project.id}/api-keys`).set(owner.auth).expect(200);
    expect(list.body.items[0].last_used_at).toBe(dbTime.toISOString());
    await t.redis.hset(record, 'last_used_ms', String(dbTime.getTime() + 5000));
    list = await t.http().get(`/v1/projects/${project.id}/api-keys`).set(owner.auth).expect(200);
    expect(list.body.items[0].last_used_at).toBe(new Date(dbTime.getTime() + 5000).toISOString());
  });

  it('deletes a key from PostgreSQL and Redis (record and rate-limit window) before answering', async () => {
    const project = await t.createProject(owner);
    const created = await t.http().post(`/v1/projects/${project.id}/api-keys`).set(owner.auth).send({ name: 'k', permission: 'admin', ratelimit_min: 5 }).expect(201);
    const hash = sha256Hex(created.body.key);
    await t.redis.zadd(rateLimitKey(project.id, hash), Date.now(), 'x');
    await t.http().delete(`/v1/projects/${project.id}/api-keys/${created.body.key_data.id}`).set(owner.auth).expect(200, { success: true, message: 'API key deleted' });
    expect(await t.redis.exists(apiKeyRecordKey(project.id, hash), rateLimitKey(project.id, hash))).toBe(0);
    expect(await t.prisma.apiKey.count({ where: { id: created.body.key_data.id } })).toBe(0);
    const again = await t.http().delete(`/v1/projects/${project.id}/api-keys/${created.body.key_data.id}`).set(owner.auth).expect(404);
    expect(again.body).toEqual({ success: false, code: 'api_key_not_found', message: 'API key not found' });
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(51) }, 'name'],
    [{ name: 'k', ratelimit_min: 0 }, 'ratelimit_min'],
    [{ name: 'k', ratelimit_min: 1.5 }, 'ratelimit_min'],
    [{ name: 'k', ratelimit_min: '60' }, 'ratelimit_min'],
    [{ name: 'k', ratelimit_min: 100001 }, 'ratelimit_min'],
    [{ name: 'k', permission: 'root' }, 'permission'],
    [{}, 'name'],
  ])('refuses %j with 400 naming %s (dashboard and internal alike)', async (body, path) => {
    const project = await t.createProject(owner);
    for (const [listener, url, headers] of [
      [t.http, `/v1/projects/${project.id}/api-keys`, owner.auth],
      [t.internal, `/internal/projects/${project.id}/api-keys`, service],
    ] as const) {
      const response = await listener().post(url).set(headers).send(body).expect(400);
      expect(response.body).toEqual({ success: false, code: 'invalid_request', message: expect.any(String), details: [{ path, message: expect.any(String) }] });
    }
    expect(await t.prisma.apiKey.count({ where: { projectId: project.id } })).toBe(0);
  });

  describe('internal API for the gateway relay', () => {
    it('requires the service token', async () => {
      const project = await t.createProject(owner);
      for (const headers of [{}, { Authorization: 'Bearer wrong-token' }, owner.auth]) {
        const response = await t.internal().post(`/internal/projects/${project.id}/api-keys`).set(headers).send({ name: 'k' }).expect(401);
        expect(response.body).toMatchObject({ success: false, code: 'unauthorized' });
      }
    });

    it('creates with the spec body (201) and deletes with the spec body (200)', async () => {
      const project = await t.createProject(owner);
      const created = await t.internal()
        .post(`/internal/projects/${project.id}/api-keys`)
        .set(service)
        .send({ name: 'Relay', ratelimit_min: 120, permission: 'admin' })
        .expect(201);
      expect(created.body).toEqual({ success: true, key: expect.any(String), key_data: { ...keyData, name: 'Relay', ratelimit_min: 120, permission: 'admin' } });
      expect(Object.keys(created.body.key_data).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'permission', 'ratelimit_min']);
      expect(await t.redis.hget(apiKeyRecordKey(project.id, sha256Hex(created.body.key)), 'permission')).toBe('admin');

      const deleted = await t.internal().delete(`/internal/projects/${project.id}/api-keys/${created.body.key_data.id}`).set(service).expect(200);
      expect(deleted.body).toEqual({ success: true, message: 'API key deleted' });
      expect(await t.redis.exists(apiKeyRecordKey(project.id, sha256Hex(created.body.key)))).toBe(0);
    });

    it('answers unknown and foreign key ids with 404 api_key_not_found, unknown projects with 404', async () => {
      const mine = await t.createProject(owner);
      const theirs = await t.createProject(await t.signup());
      const foreign = await t.internal().post(`/internal/projects/${theirs.id}/api-keys`).set(service).send({ name: 'theirs' }).expect(201);
      for (const id of [foreign.body.key_data.id, '00000000-0000-4000-8000-000000000000', 'garbage']) {
        const response = await t.internal().delete(`/internal/projects/${mine.id}/api-keys/${id}`).set(service).expect(404);
        expect(response.body).toEqual({ success: false, code: 'api_key_not_found', message: 'API key not found' });
      }
      expect(await t.redis.exists(apiKeyRecordKey(theirs.id, sha256Hex(foreign.body.key)))).toBe(1);
      const unknown = await t.internal().post('/internal/projects/00000000-0000-4000-8000-000000000000/api-keys').set(service).send({ name: 'k' }).expect(404);
      expect(unknown.body.code).toBe('project_not_found');
    });

    it('does not exist on the public listener, whatever the token or letter case (404 before the body is read)', async () => {
      const project = await t.createProject(owner);
      for (const path of [`/internal/projects/${project.id}/api-keys`, `/INTERNAL/projects/${project.id}/api-keys`, '/internal', '/Internal/x']) {
        const response = await t.http().post(path).set(service).send({ name: 'k' }).expect(404);
        expect(response.body).toEqual({ success: false, code: 'not_found', message: 'Not found' });
      }
      expect(await t.prisma.apiKey.count({ where: { projectId: project.id } })).toBe(0);
    });

    it('serves nothing but /internal on the internal listener', async () => {
      const response = await t.internal().get('/v1/auth/me').set(owner.auth).expect(404);
      expect(response.body).toEqual({ success: false, code: 'not_found', message: 'Not found' });
      await t.internal().get('/docs-json').expect(404);
    });

    it('is not in the public OpenAPI document', async () => {
      const doc = await t.http().get('/docs-json').expect(200);
      expect(Object.keys(doc.body.paths).some((path) => path.startsWith('/internal'))).toBe(false);
      expect(doc.body.paths['/v1/projects/{projectId}/api-keys']).toBeDefined();
    });
  });
});
