import { randomUUID } from 'node:crypto';
import { type TestAccount, type TestApp, startTestApp } from '../testing/test-app';

describe('log entry details API (real PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let projectId: string;
  let base: string;
  const failed = { id: randomUUID(), time: new Date(Date.now() - 90 * 60_000), endpointId: randomUUID() };
  const ok = { id: randomUUID(), time: new Date(Date.now() - 60_000) };
  let keyId: string;
  const details = {
    headers: [['host', 'shop.example'], ['authorization', '[redacted]'], ['content-type', 'application/json']],
    body: '{"id":7}',
    body_bytes: 8,
    body_truncated: false,
    response_bytes: 97,
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
    projectId = (await t.createProject(owner)).id;
    base = `/v1/projects/${projectId}/logs`;
    const key = await t.http().post(`/v1/projects/${projectId}/api-keys`).set(owner.auth).send({ name: 'Mobile app', ratelimit_min: 60, permission: 'user' }).expect(201);
    keyId = key.body.key_data.id;
    await t.prisma.$executeRaw`
      INSERT INTO request_logs (id, time, project_id, endpoint_id, path, method, status, code, duration_ms, key_id, query, message, error_node_id, details)
      VALUES (${failed.id}::uuid, ${failed.time}, ${projectId}::uuid, ${failed.endpointId}::uuid, '/orders', 'POST', 500, 'flow_error', 12.5,
              ${keyId}::uuid, 'id=7&x=%20', 'Decode Text (x1): input is not valid hex', 'x1', ${JSON.stringify(details)}::json),
             (${ok.id}::uuid, ${ok.time}, ${projectId}::uuid, NULL, '/users', 'GET', 200, NULL, 1.5, NULL, '', NULL, NULL, NULL)`;
  });

  afterAll(async () => {
    await t.prisma.$executeRaw`DELETE FROM request_logs WHERE project_id = ${projectId}::uuid`;
    await t.close();
  });

  it("gives an entry with its key name, query, error message, the block that failed and the request's details", async () => {
    const { body } = await t.http().get(`${base}/${failed.id}`).set(owner.auth).expect(200);
    expect(body).toEqual({
      id: failed.id,
      endpoint: '/orders',
      time: failed.time.toISOString(),
      method: 'POST',
      status: 500,
      duration_ms: 12.5,
      key_id: keyId,
      code: 'flow_error',
      environment: 'live',
      trigger: 'http',
      streamed: false,
      cache: null,
      endpoint_id: failed.endpointId,
      key_name: 'Mobile app',
      query: 'id=7&x=%20',
      error_node_id: 'x1',
      message: 'Decode Text (x1): input is not valid hex',
      details: { ...details, headers: details.headers.map(([name, value]) => ({ name, value })) },
    });
  });

  it('finds it directly with the time of the list entry, and gives a success no message', async () => {
    const { body } = await t.http().get(`${base}/${ok.id}`).query({ time: ok.time.toISOString() }).set(owner.auth).expect(200);
    expect(body).toMatchObject({ id: ok.id, status: 200, code: null, message: null, error_node_id: null, key_name: null, query: '', details: null });
  });

  it('answers 404 for an unknown id, a wrong time, a malformed id and another account', async () => {
    await t.http().get(`${base}/${randomUUID()}`).set(owner.auth).expect(404);
    await t.http().get(`${base}/${ok.id}`).query({ time: failed.time.toISOString() }).set(owner.auth).expect(404);
    await t.http().get(`${base}/not-a-uuid`).set(owner.auth).expect(404);
    const stranger = await t.signup();
    const response = await t.http().get(`${base}/${failed.id}`).set(stranger.auth).expect(404);
    expect(response.body.message).not.toContain('flow_error');
  });

  it('forgets the key name once the key is deleted', async () => {
    await t.http().delete(`/v1/projects/${projectId}/api-keys/${keyId}`).set(owner.auth).expect((r) => expect([200, 204]).toContain(r.status));
    const { body } = await t.http().get(`${base}/${failed.id}`).set(owner.auth).expect(200);
    expect(body).toMatchObject({ key_id: keyId, key_name: null });
  });

  it('filters the list by a status class', async () => {
    const { body } = await t.http().get(base).query({ status: '5xx' }).set(owner.auth).expect(200);
    expect(body.items.map((item: { id: string }) => item.id)).toEqual([failed.id]);
  });
});
