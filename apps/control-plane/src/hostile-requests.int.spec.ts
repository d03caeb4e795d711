/**
 * Requests a browser on another site, or a hostile client, can send to the real control plane:
 * cross-site writes with the session cookie, non-JSON bodies, NUL characters,
 * query parameters the logs do not know, and sign-ups from one address.
 */
import { endpointBody, respondFlow } from './testing/flows';
import { startTestApp, type TestAccount, type TestApp, uniqueAddress, uniqueEmail } from './testing/test-app';

/** What a page of `http://localhost:5174` (same site as the dashboard, another origin) makes the browser send. */
const FROM_OTHER_PORT = { Origin: 'http://localhost:5174', 'Sec-Fetch-Site': 'same-site' };
const FROM_DASHBOARD = { Origin: 'http://localhost:5173', 'Sec-Fetch-Site': 'same-origin' };

describe('hostile requests against the control plane', () => {
  let t: TestApp;
  let owner: TestAccount;
  let cookie: string;
  let project: { id: string };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
    cookie = `fg_session=${owner.token}`;
    project = await t.createProject(owner);
  });

  afterAll(() => t.close());

  const keyNames = async () =>
    ((await t.http().get(`/v1/projects/${project.id}/api-keys`).set(owner.auth).expect(200)).body.items as Array<{ name: string }>).map((key) => key.name);

  describe('cross-site requests with the session cookie', () => {
    it('refuses the form post of another origin of the same site that created an admin key', async () => {
      const forged = await t
        .http()
        .post(`/v1/projects/${project.id}/api-keys`)
        .set({ Cookie: cookie, ...FROM_OTHER_PORT, 'Content-Type': 'application/x-www-form-urlencoded' })
        .send('name=forged&permission=admin');
      expect(forged.status).toBe(403);
      expect(forged.body).toEqual({ success: false, code: 'forbidden', message: expect.stringContaining('Cross-site request refused') });
      expect(await keyNames()).not.toContain('forged');
    });

    it('refuses a no-cors undeploy and a JSON project creation from another origin; the endpoint stays live', async () => {
      const endpoint = (await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(endpointBody({ path: '/live' })).expect(201)).body;
      await t.http().post(`/v1/projects/${project.id}/endpoints/${endpoint.id}/deploy`).set(owner.auth).expect(200);
      const undeploy = await t.http().post(`/v1/projects/${project.id}/endpoints/${endpoint.id}/undeploy`).set({ Cookie: cookie, ...FROM_OTHER_PORT });
      expect(undeploy.status).toBe(403);
      const created = await t.http().post('/v1/projects').set({ Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }).send({ name: 'Forged' });
      expect(created.status).toBe(403);
      // An older browser without Sec-Fetch-Site still sends Origin.
      const old = await t.http().post('/v1/projects').set({ Cookie: cookie, Origin: 'http://localhost:5174' }).send({ name: 'Forged' });
      expect(old.status).toBe(403);
      const now = await t.http().get(`/v1/projects/${project.id}/endpoints/${endpoint.id}`).set(owner.auth).expect(200);
      expect(now.body.status).toBe('live');
      const names = (await t.http().get('/v1/projects').set(owner.auth).expect(200)).body.items.map((p: { name: string }) => p.name);
      expect(names).not.toContain('Forged');
    });

    it('accepts the dashboard itself, the configured origins and bearer-token clients', async () => {
      await t.http().post(`/v1/projects/${project.id}/api-keys`).set({ Cookie: cookie, ...FROM_DASHBOARD }).send({ name: 'from-dashboard' }).expect(201);
      // Behind the production proxy: the browser addressed this host, so Origin matches it.
      await t
        .http()
        .post(`/v1/projects/${project.id}/api-keys`)
        .set({ Cookie: cookie, Origin: 'https://flowgate.example', 'X-Forwarded-Host': 'flowgate.example' })
        .send({ name: 'via-proxy' })
        .expect(201);
      await t.http().post(`/v1/projects/${project.id}/api-keys`).set({ ...owner.auth, ...FROM_OTHER_PORT }).send({ name: 'bearer' }).expect(201);
      expect(await keyNames()).toEqual(expect.arrayContaining(['from-dashboard', 'via-proxy', 'bearer']));
    });

    it('takes JSON bodies only: a form or plain text is 415 unsupported_media_type, whoever sends it', async () => {
      const form = await t.http().post(`/v1/projects/${project.id}/api-keys`).set(owner.auth).type('form').send('name=formed');
      expect(form.status).toBe(415);
      expect(form.body).toEqual({ success: false, code: 'unsupported_media_type', message: 'Send the request body as application/json, not application/x-www-form-urlencoded' });
      const text = await t.http().post('/v1/projects').set(owner.auth).set('Content-Type', 'text/plain').send('{"name":"Plain"}');
      expect(text.status).toBe(415);
      expect(await keyNames()).not.toContain('formed');
    });
  });

  describe('NUL characters', () => {
    const nulDetail = (path: string) => ({ path, message: 'must not contain a NUL character (\\u0000)' });

    it.each([
      ['project name', 'post', '/v1/projects', { name: 'a\u0000b' }, 'name'],
      ['key name', 'post', '/v1/projects/:id/api-keys', { name: 'k\u0000' }, 'name'],
      ['endpoint name', 'post', '/v1/projects/:id/endpoints', endpointBody({ name: 'E\u0000' }), 'name'],
      ['query default', 'post', '/v1/projects/:id/endpoints', endpointBody({ query_params: [{ key: 'q', default: 'x\u0000' }] }), 'query_params.0.default'],
      [
        'node id',
        'post',
        '/v1/projects/:id/endpoints',
        endpointBody({ flow: { ...respondFlow('x'), nodes: [{ id: 'st\u0000art', type: 'start', position: { x: 0, y: 0 } }] } }),
        'flow.nodes.0.id',
      ],
      [
        'model name in a flow config',
        'post',
        '/v1/projects/:id/endpoints',
        endpointBody({
          flow: {
            nodes: [{ id: 'g', type: 'generate_text', position: { x: 0, y: 0 }, config: { prompt: 'hi', model: 'claude\u0000', ref: 'r' } }],
            edges: [],
          },
        }),
        'flow.nodes.0.config.model',
      ],
      ['login email', 'post', '/v1/auth/login', { email: 'a\u0000@example.test', password: 'whatever password' }, 'email'],
      ['key of a JSON object', 'post', '/v1/projects', { name: 'ok', ['x\u0000']: 1 }, 'x\\u0000'],
    ])('%s → 400 invalid_request naming the field', async (_what, method, route, body, path) => {
      const answer = await t.http()[method as 'post'](route.replace(':id', project.id)).set(owner.auth).send(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ success: false, code: 'invalid_request', message: expect.stringContaining('NUL character'), details: [nulDetail(path)] });
    });

    it('refuses a NUL in the query or the path with 400', async () => {
      const logs = await t.http().get(`/v1/projects/${project.id}/logs?endpoint=%00`).set(owner.auth);
      expect(logs.status).toBe(400);
      expect(logs.body.details).toEqual([nulDetail('endpoint')]);
      const path = await t.http().get(`/v1/projects/${project.id}%00/endpoints`).set(owner.auth);
      expect(path.status).toBe(400);
      expect(path.body.details).toEqual([nulDetail('url')]);
    });
  });

  it('answers 400 to logs filters it does not know instead of dropping them', async () => {
    for (const [query, key] of [
      ['status[]=500', 'status[]'],
      ['method[$ne]=x', 'method[$ne]'],
    ]) {
      const answer = await t.http().get(`/v1/projects/${project.id}/logs?${query}`).set(owner.auth);
      expect({ query, status: answer.status, body: answer.body }).toEqual({
        query,
        status: 400,
        body: { success: false, code: 'invalid_request', message: 'The request is not valid', details: [{ path: key, message: 'is not a known parameter' }] },
      });
      const stats = await t.http().get(`/v1/projects/${project.id}/logs/stats?${query}`).set(owner.auth);
      expect(stats.status).toBe(400);
    }
    await t.http().get(`/v1/projects/${project.id}/logs?status=500&method=get`).set(owner.auth).expect(200);
  });
});

describe('sign-up throttle per client address (SIGNUP_PER_ADDRESS_PER_HOUR)', () => {
  let t: TestApp;
  const created: string[] = [];

  beforeAll(async () => {
    t = await startTestApp((config) => ({ ...config, signupsPerAddressPerHour: 3 }));
  });

  afterAll(async () => {
    await t.prisma.account.deleteMany({ where: { id: { in: created } } });
    await t.close();
  });

  const signup = (address: string) =>
    t.http().post('/v1/auth/signup').set('X-Forwarded-For', address).send({ email: uniqueEmail(), password: 'a long enough pass phrase 42' });

  it('answers 429 rate_limited with Retry-After past the limit, and only to that address', async () => {
    const address = uniqueAddress();
    for (let i = 0; i < 3; i++) created.push((await signup(address).expect(201)).body.user.id);
    const refused = await signup(address);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, code: 'rate_limited', message: expect.stringMatching(/^At most 3 sign-ups per hour from one address; try again in \d+ s$/) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    created.push((await signup(uniqueAddress()).expect(201)).body.user.id);
  });
});
