import { type TestApp, startTestApp } from '../testing/test-app';

describe('health, metrics and docs (real PostgreSQL and Redis)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz', async () => {
    await t.http().get('/healthz').expect(200, { status: 'ok' });
    await t.http().get('/readyz').expect(200, { status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('exposes Prometheus metrics, with request durations by route', async () => {
    await t.http().get('/v1/projects').expect(401);
    const response = await t.http().get('/metrics').expect(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.text).toContain('process_cpu_user_seconds_total');
    expect(response.text).toMatch(/flowgate_control_plane_http_request_duration_seconds_count\{method="GET",route="\/v1\/projects",status="401"\} \d+/);
  });

  it('serves the OpenAPI document and Swagger UI', async () => {
    const doc = await t.http().get('/docs-json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    for (const path of [
      '/v1/auth/signup',
      '/v1/projects/{projectId}',
      '/v1/projects/{projectId}/endpoints/{endpointId}/deploy',
      '/v1/projects/{projectId}/endpoints/{endpointId}/versions/{version}/deploy',
      '/v1/projects/{projectId}/logs',
    ])
      expect(doc.body.paths[path]).toBeDefined();
    const ui = await t.http().get('/docs').redirects(1).expect(200);
    expect(ui.text).toContain('swagger');
  });

  it('answers unknown routes with the common error body', async () => {
    await t.http().get('/v1/nowhere').expect(404, { success: false, code: 'not_found', message: 'Not found' });
  });

  it('sends CORS headers with credentials to the dashboard origin only', async () => {
    const allowed = await t.http().options('/v1/auth/me').set('Origin', 'http://localhost:5173').set('Access-Control-Request-Method', 'GET');
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const other = await t.http().options('/v1/auth/me').set('Origin', 'http://evil.example').set('Access-Control-Request-Method', 'GET');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('readiness without Redis', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp((config) => ({ ...config, redisUrl: 'redis://127.0.0.1:1' }));
  });
  afterAll(() => t.close());

  it('answers 503 naming the unreachable dependency', async () => {
    await t.http().get('/readyz').expect(503, { status: 'not_ready', checks: { postgres: 'ok', redis: 'unreachable' } });
  });
});
