import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PublishedProject } from '@flowgate/contracts';
import { imageKey } from '@flowgate/contracts';
import { EgressError, IntegrationError } from '@flowgate/flow-engine';
import { EMAIL_QUEUE_NAME } from '@flowgate/integrations';
import { createLogger, SecretBox } from '@flowgate/platform';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { loadGatewayConfig } from '../config';
import { buildFlowPorts, createFlowPortsContext, type FlowPortsContext } from './flow-ports';
import { handleImageRequest } from './images-route';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const encryptionKey = process.env.FLOWGATE_ENCRYPTION_KEY ?? '0'.repeat(64);
const never = () => new AbortController().signal;

function project(integrations: Partial<PublishedProject['integrations']> = {}): PublishedProject {
  return {
    id: `proj-${randomUUID()}`,
    subdomain: 'shop',
    require_auth: false,
    revision: 1,
    integrations: { text_generation: null, email: null, ...integrations },
    routes: [],
  };
}

describe('buildFlowPorts (gateway wiring of the integration adapters)', () => {
  const secrets = new SecretBox(encryptionKey);
  const prefix = `fgtest-ports-${randomUUID().slice(0, 8)}`;
  const savedEnv = { ...process.env };
  let anthropic: http.Server;
  let anthropicUrl: string;
  let redis: Redis;
  let context: FlowPortsContext;

  beforeAll(async () => {
    anthropic = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'hi from the stand-in' }],
            stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => anthropic.listen(0, '127.0.0.1', resolve));
    anthropicUrl = `http://127.0.0.1:${(anthropic.address() as AddressInfo).port}`;
    Object.assign(process.env, { ANTHROPIC_BASE_URL: anthropicUrl, BULLMQ_PREFIX: prefix, FLOWGATE_EGRESS_ALLOW_CIDRS: '' });
    redis = new Redis(redisUrl);
    const config = loadGatewayConfig({
      ...process.env,
      REDIS_URL: redisUrl,
      FLOWGATE_ENCRYPTION_KEY: encryptionKey,
      FLOWGATE_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
      GATEWAY_PUBLIC_URL: 'http://{subdomain}.localhost:8080',
    });
    context = createFlowPortsContext({ config, redis, secrets, logger: createLogger('ports-test', 'silent') });
  });

  afterAll(async () => {
    await context.close();
    const queue = new Queue(EMAIL_QUEUE_NAME, { connection: { url: redisUrl }, prefix });
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
    await new Promise((resolve) => anthropic.close(resolve));
    process.env = savedEnv;
  });

  it('gives http and images always, and no text generation or email without integrations', () => {
    const ports = buildFlowPorts(project(), context.deps);
    expect(ports.http).toBeDefined();
    expect(ports.images).toBeDefined();
    expect(ports.textGeneration).toBeUndefined();
    expect(ports.email).toBeUndefined();
  });

  it('guards outbound requests with the configured allow-list (loopback refused by default)', async () => {
    const ports = buildFlowPorts(project(), context.deps);
    const attempt = ports.http!.request({ method: 'GET', url: `${anthropicUrl}/`, headers: {} }, never());
    await expect(attempt).rejects.toBeInstanceOf(EgressError);
    await expect(attempt).rejects.toMatchObject({ code: 'egress_blocked' });
    await expect(ports.http!.request({ method: 'GET', url: 'http://169.254.169.254/latest/meta-data/', headers: {} }, never())).rejects.toMatchObject({
      code: 'egress_blocked',
    });
  });

  it('decrypts the Anthropic key and talks to ANTHROPIC_BASE_URL', async () => {
    const ports = buildFlowPorts(
      project({ text_generation: { provider: 'anthropic', api_key_encrypted: secrets.encrypt('sk-ant-x'), default_model: null } }),
      context.deps,
    );
    expect(await ports.textGeneration!.generate({ prompt: 'hello', model: null, temperature: null, max_tokens: null }, never())).toBe('hi from the stand-in');
  });

  it('enqueues email on the shared queue with the BullMQ prefix, key still encrypted', async () => {
    const sealed = secrets.encrypt('SG.key');
    const owner = project({ email: { provider: 'sendgrid', api_key_encrypted: sealed, verified_domains: ['example.com'] } });
    const ports = buildFlowPorts(owner, context.deps);
    expect(ports.email!.verifiedDomains).toEqual(['example.com']);
    await ports.email!.enqueue({ to: 'a@b.test', from: 'Shop <shop@example.com>', subject: 'Hi', body: 'Body' });
    const queue = new Queue(EMAIL_QUEUE_NAME, { connection: { url: redisUrl }, prefix });
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active']);
    await queue.close();
    const job = jobs.find((candidate) => candidate.data.project_id === owner.id);
    expect(job?.data).toMatchObject({ api_key_encrypted: sealed, message: { subject: 'Hi' } });
  });

  it('fails the block clearly when a secret cannot be decrypted', async () => {
    const ports = buildFlowPorts(
      project({
        text_generation: { provider: 'anthropic', api_key_encrypted: new SecretBox('f'.repeat(64)).encrypt('sk'), default_model: null },
        email: { provider: 'sendgrid', api_key_encrypted: 'garbage', verified_domains: ['example.com'] },
      }),
      context.deps,
    );
    await expect(ports.textGeneration!.generate({ prompt: 'x', model: null, temperature: null, max_tokens: null }, never())).rejects.toBeInstanceOf(
      IntegrationError,
    );
    await expect(ports.email!.enqueue({ to: 'a@b.test', from: 'S <s@example.com>', subject: 's', body: 'b' })).rejects.toThrow('cannot be decrypted');
  });

  it('serves stored images at /_images/<id>.png and 404s unknown ones', async () => {
    const id = randomBytes(16).toString('base64url');
    await redis.set(imageKey(id), Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'EX', 60);
    const server = http.createServer((req, res) => void handleImageRequest(req, res, redis));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const found = await fetch(`${base}/_images/${id}.png`);
      expect(found.status).toBe(200);
      expect(found.headers.get('content-type')).toBe('image/png');
      expect(found.headers.get('cache-control')).toMatch(/^public, max-age=\d+, immutable$/);
      expect(Buffer.from(await found.arrayBuffer())).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      const missing = await fetch(`${base}/_images/${'Z'.repeat(22)}.png`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ success: false, code: 'not_found' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await redis.del(imageKey(id));
    }
  });
});
