import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Gateway } from '../gateway';
import { call, freePort, linearFlow, respond, waitFor } from '@flowgate/testing';
import { adminCreateKeyThrough, startGateway } from '../testing/gateway-harness';

/**
 * The gateway with the real control plane (its own process, the test database): what the
 * dashboard API deploys is served, and the admin key API manages keys exactly as the spec shows.
 */
describe('gateway + the real control plane', () => {
  let controlPlane: ChildProcess;
  let controlPlaneUrl: string;
  let gateway: Gateway;
  let output = '';
  let auth: { authorization: string };
  let project: { id: string; subdomain: string };

  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(controlPlaneUrl + url, {
      method,
      headers: { 'content-type': 'application/json', ...auth },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${url} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };

  beforeAll(async () => {
    const [port, internalPort] = [await freePort(), await freePort()];
    controlPlaneUrl = `http://127.0.0.1:${port}`;
    controlPlane = spawn(process.execPath, ['scripts/run-ts.js', 'apps/control-plane/src/main.ts'], {
      cwd: path.resolve(__dirname, '../../../..'),
      env: { ...process.env, CONTROL_PLANE_PORT: String(port), CONTROL_PLANE_INTERNAL_PORT: String(internalPort), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    controlPlane.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    controlPlane.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(
      () => {
        if (controlPlane.exitCode !== null) throw new Error(`control plane exited: ${output}`);
        return fetch(`${controlPlaneUrl}/healthz`).then((r) => r.ok);
      },
      'the control plane to answer',
      60_000,
    );
    auth = { authorization: '' };
    const signup = await api('POST', '/v1/auth/signup', {
      email: `gw-${randomBytes(5).toString('hex')}@example.test`,
      password: `pw-${randomBytes(8).toString('hex')}`,
    });
    auth = { authorization: `Bearer ${signup.token as string}` };
    project = (await api('POST', '/v1/projects', { name: 'Gateway e2e', subdomain: `gw${randomBytes(5).toString('hex')}` })) as typeof project;
    gateway = await startGateway({ CONTROL_PLANE_INTERNAL_URL: `http://127.0.0.1:${internalPort}` });
  }, 90_000);

  afterAll(async () => {
    await gateway?.close();
    if (project) await api('DELETE', `/v1/projects/${project.id}`).catch(() => undefined);
    if (controlPlane && controlPlane.exitCode === null) {
      const exited = new Promise((resolve) => controlPlane.once('exit', resolve));
      controlPlane.kill('SIGTERM');
      await exited;
    }
  });

  it('serves a deployed endpoint and manages keys through the admin API', async () => {
    const host = () => `${project.subdomain}.localhost:8080`;
    const endpoint = await api('POST', `/v1/projects/${project.id}/endpoints`, {
      name: 'Members',
      method: 'GET',
      path: '/members',
      auth: 'user',
      query_params: [],
      flow: linearFlow([respond({ members: true })]),
    });
    await api('POST', `/v1/projects/${project.id}/endpoints/${endpoint.id as string}/deploy`);
    const admin = (await api('POST', `/v1/projects/${project.id}/api-keys`, { name: 'admin', permission: 'admin', ratelimit_min: 100 })) as {
      key: string;
    };
    // The control plane has answered: the deployment is served at once.
    const served = await call(gateway.url, host(), '/api/members', { key: admin.key });
    expect([served.status, served.json]).toEqual([200, { members: true }]);

    const created = await call(gateway.url, host(), '/admin/api-keys', {
      method: 'POST',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci', ratelimit_min: 5, permission: 'user' }),
    });
    expect(created.status).toBe(201);
    const body = created.json as { success: true; key: string; key_data: { id: string } };
    expect(body).toEqual({
      success: true,
      key: expect.stringMatching(/^fg_/),
      key_data: { id: expect.any(String), name: 'ci', last_used_at: null, created_at: expect.any(String), ratelimit_min: 5, permission: 'user' },
    });
    const used = await call(gateway.url, host(), '/members', { key: body.key });
    expect([used.status, used.headers['ratelimit-limit']]).toEqual([200, '5']);

    const deleted = await call(gateway.url, host(), `/admin/api-keys/${body.key_data.id}`, { method: 'DELETE', key: admin.key });
    expect([deleted.status, deleted.json]).toEqual([200, { success: true, message: 'API key deleted' }]);
    expect((await call(gateway.url, host(), '/members', { key: body.key })).status).toBe(401);
    const again = await call(gateway.url, host(), `/admin/api-keys/${body.key_data.id}`, { method: 'DELETE', key: admin.key });
    expect(again.status).toBe(404);

    // A subdomain change: the new address serves, the old one is gone.
    const oldHost = host();
    const renamed = (await api('PATCH', `/v1/projects/${project.id}`, { subdomain: `${project.subdomain}x` })) as typeof project;
    project = renamed;
    await waitFor(async () => (await call(gateway.url, host(), '/members', { key: admin.key })).status === 200, 'the new address', 20_000);
    await waitFor(async () => (await call(gateway.url, oldHost, '/members', { key: admin.key })).status === 404, 'the old address gone', 20_000);
  }, 60_000);

  it('answers 503 naming the misconfiguration, not a relayed 404, when CONTROL_PLANE_INTERNAL_URL is the public port', async () => {
    const admin = (await api('POST', `/v1/projects/${project.id}/api-keys`, { name: 'ops', permission: 'admin' })) as { key: string };
    const created = await adminCreateKeyThrough({ CONTROL_PLANE_INTERNAL_URL: controlPlaneUrl }, `${project.subdomain}.localhost:8080`, admin.key);
    expect([created.status, (created.json as { code: string }).code]).toEqual([503, 'unavailable']);
  });
});
