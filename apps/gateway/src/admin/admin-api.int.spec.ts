import type { PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Gateway } from '../gateway';
import { adminCreateKeyThrough, startGateway } from '../testing/gateway-harness';
import { call, publishedRoute, respond, type TestKey, TestPublisher } from '@flowgate/testing';

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

/**
 * Stands in for the control plane's internal API: writes keys to Redis the way it does and
 * answers with its bodies. The real control plane is tested against its own contract.
 */
class ControlPlaneStandIn {
  readonly received: Received[] = [];
  readonly keys = new Map<string, TestKey>();
  server = http.createServer((req, res) => void this.handle(req, res));

  constructor(
    private readonly publisher: TestPublisher,
    private readonly token: string,
  ) {}

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    this.received.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${this.token}`) return send(401, { success: false, code: 'unauthorized', message: 'no' });
    const create = /^\/internal\/projects\/([^/]+)\/api-keys$/.exec(req.url!);
    if (create && req.method === 'POST') {
      const input = JSON.parse(body) as { name?: string; ratelimit_min?: number; permission?: 'user' | 'admin' };
      if (typeof input.name !== 'string' || input.name.length > 50) {
        return send(400, {
          success: false,
          code: 'invalid_request',
          message: 'Validation failed',
          details: [{ path: 'name', message: 'Required, at most 50 characters' }],
        });
      }
      const key = await this.publisher.createKey(create[1]!, { permission: input.permission, ratelimit_min: input.ratelimit_min ?? 60 });
      this.keys.set(key.id, key);
      return send(201, {
        success: true,
        key: key.key,
        key_data: {
          id: key.id,
          name: input.name,
          last_used_at: null,
          created_at: new Date().toISOString(),
          ratelimit_min: input.ratelimit_min ?? 60,
          permission: input.permission ?? 'user',
        },
      });
    }
    const remove = /^\/internal\/projects\/([^/]+)\/api-keys\/([^/]+)$/.exec(req.url!);
    if (remove && req.method === 'DELETE') {
      const key = this.keys.get(decodeURIComponent(remove[2]!));
      if (!key) return send(404, { success: false, code: 'api_key_not_found', message: 'API key not found' });
      await this.publisher.deleteKey(key);
      this.keys.delete(key.id);
      return send(200, { success: true, message: 'API key deleted' });
    }
    send(404, { success: false, code: 'not_found', message: 'Not found' });
  }
}

describe('gateway: admin key API relayed to the control plane', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let controlPlane: ControlPlaneStandIn;
  let gateway: Gateway;
  let project: PublishedProject;
  let admin: TestKey;
  let host: string;
  const token = process.env.FLOWGATE_SERVICE_TOKEN!;

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    controlPlane = new ControlPlaneStandIn(publisher, token);
    const controlPlaneUrl = await controlPlane.listen();
    project = publisher.newProject([publishedRoute({ path: '/members', auth: 'user', blocks: [respond({ ok: true })] })]);
    await publisher.publish(project);
    admin = await publisher.createKey(project.id, { permission: 'admin' });
    host = `${project.subdomain}.localhost:8080`;
    gateway = await startGateway({ CONTROL_PLANE_INTERNAL_URL: controlPlaneUrl });
  });

  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => controlPlane?.server.close(resolve));
    await publisher.cleanup();
    redis.disconnect();
  });

  const createKey = (key: string | undefined, body: unknown) =>
    call(gateway.url, host, '/admin/api-keys', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('creates a key (201, the control plane body unchanged), which then works, and deletes it (200)', async () => {
    const before = controlPlane.received.length;
    const created = await createKey(admin.key, { name: 'ci', ratelimit_min: 30, permission: 'user' });
    expect(created.status).toBe(201);
    const body = created.json as { success: boolean; key: string; key_data: Record<string, unknown> };
    expect(body).toEqual({
      success: true,
      key: expect.stringMatching(/^fg_/),
      key_data: {
        id: expect.any(String),
        name: 'ci',
        last_used_at: null,
        created_at: expect.any(String),
        ratelimit_min: 30,
        permission: 'user',
      },
    });
    const relayed = controlPlane.received[before]!;
    expect(relayed).toEqual({
      method: 'POST',
      url: `/internal/projects/${project.id}/api-keys`,
      authorization: `Bearer ${token}`,
      body: JSON.stringify({ name: 'ci', ratelimit_min: 30, permission: 'user' }),
    });

    const used = await call(gateway.url, host, '/members', { key: body.key });
    expect(used.status).toBe(200);
    expect(used.headers['ratelimit-limit']).toBe('30');

    const deleted = await call(gateway.url, host, `/admin/api-keys/${body.key_data.id as string}`, { method: 'DELETE', key: admin.key });
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('{"success":true,"message":"API key deleted"}');
    expect((await call(gateway.url, host, '/members', { key: body.key })).status).toBe(401);
  });

  it('relays 404 for an unknown key id and 400 validation errors unchanged', async () => {
    const unknown = await call(gateway.url, host, `/admin/api-keys/${randomUUID()}`, { method: 'DELETE', key: admin.key });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ success: false, code: 'api_key_not_found', message: 'API key not found' });
    const invalid = await createKey(admin.key, { name: 'x'.repeat(51) });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ success: false, code: 'invalid_request', details: [{ path: 'name' }] });
  });

  it('accepts admin keys of the project only: user key 403, no key 401, another project’s key 401', async () => {
    const user = await publisher.createKey(project.id, { permission: 'user' });
    const other = publisher.newProject([]);
    await publisher.publish(other);
    const foreignAdmin = await publisher.createKey(other.id, { permission: 'admin' });
    const before = controlPlane.received.length;
    const cases: [string | undefined, number, string][] = [
      [user.key, 403, 'insufficient_permission'],
      [undefined, 401, 'missing_api_key'],
      [foreignAdmin.key, 401, 'invalid_api_key'],
    ];
    for (const [key, status, code] of cases) {
      const created = await createKey(key, { name: 'nope' });
      expect([created.status, (created.json as { code: string }).code]).toEqual([status, code]);
      const deleted = await call(gateway.url, host, `/admin/api-keys/${admin.id}`, { method: 'DELETE', key });
      expect([deleted.status, (deleted.json as { code: string }).code]).toEqual([status, code]);
    }
    expect(controlPlane.received.length).toBe(before);
  });

  it('answers 405 with Allow for other methods, 400 for malformed JSON, 404 for other admin paths', async () => {
    const list = await call(gateway.url, host, '/admin/api-keys', { key: admin.key });
    expect([list.status, list.headers.allow]).toEqual([405, 'POST']);
    const put = await call(gateway.url, host, '/admin/api-keys/abc', { method: 'PUT', key: admin.key });
    expect([put.status, put.headers.allow]).toEqual([405, 'DELETE']);
    const malformed = await createKey(admin.key, '{"name":');
    expect([malformed.status, (malformed.json as { code: string }).code]).toEqual([400, 'invalid_json']);
    const other = await call(gateway.url, host, '/admin/users', { key: admin.key });
    expect(other.status).toBe(404);
  });

  it('answers 503 when the control plane refuses the service token (misconfiguration, not the caller’s fault)', async () => {
    const created = await adminCreateKeyThrough(
      { CONTROL_PLANE_INTERNAL_URL: `http://127.0.0.1:${(controlPlane.server.address() as AddressInfo).port}`, FLOWGATE_SERVICE_TOKEN: 'a-different-service-token' },
      host,
      admin.key,
    );
    expect([created.status, (created.json as { code: string }).code]).toEqual([503, 'unavailable']);
  });
});
