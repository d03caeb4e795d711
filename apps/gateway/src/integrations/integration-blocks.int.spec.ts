/**
 * The four integration blocks end to end: a real gateway (in process), flows compiled by the
 * real engine and published to Redis, the worker's email delivery on a BullMQ worker, and
 * stand-ins on 127.0.0.1 for the remote host, Anthropic and SendGrid (the real SDKs talk to them).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { PublishedProject } from '@flowgate/contracts';
import { imageKey } from '@flowgate/contracts';
import { createEmailDeliveryProcessor, decodeImage, deliveryMarkerKey, EMAIL_QUEUE_NAME } from '@flowgate/integrations';
import { createLogger, SecretBox } from '@flowgate/platform';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { Jimp } from 'jimp';
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { call, publishedRoute, respond, type StandIn, startStandIn, TestPublisher, waitUntil } from '@flowgate/testing';

jest.setTimeout(60000);

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const PIXELS = [
  [255, 0, 0, 255],
  [10, 200, 30, 255],
  [0, 0, 255, 128],
];

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}


describe('integration blocks through the gateway (stand-ins on 127.0.0.1, real SDKs)', () => {
  const prefix = `fgtest-e2e-${randomUUID().slice(0, 8)}`;
  const savedEnv = { ...process.env };
  const secrets = new SecretBox(process.env.FLOWGATE_ENCRYPTION_KEY ?? '0'.repeat(64));
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let worker: Worker;
  let remote: StandIn;
  let anthropic: StandIn;
  let sendgrid: StandIn;
  let sendgridCalls = 0;
  let withIntegrations: PublishedProject;
  let without: PublishedProject;
  const images: string[] = [];

  beforeAll(async () => {
    const image = new Jimp({ width: PIXELS.length, height: 1, color: 0x000000ff });
    PIXELS.forEach((rgba, i) => image.bitmap.data.set(rgba, i * 4));
    const png = await image.getBuffer('image/png');
    remote = await startStandIn((req, res) => {
      if (req.url === '/photo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (req.url === '/to-metadata') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      return sendJson(res, 200, { stock: 7 });
    });
    anthropic = await startStandIn((_req, res, raw) => {
      const body = JSON.parse(raw);
      sendJson(res, 200, {
        id: 'msg_e2e', type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text: `Claude says: ${body.messages[0].content}` }],
        stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 3 },
      });
    });
    sendgrid = await startStandIn((_req, res) => {
      sendgridCalls += 1;
      if (sendgridCalls <= 2) return sendJson(res, 500, { errors: [{ message: 'try later' }] });
      res.writeHead(202, { 'x-message-id': 'sg-e2e' }).end();
    });

    Object.assign(process.env, {
      FLOWGATE_EGRESS_ALLOW_CIDRS: '127.0.0.0/8',
      ANTHROPIC_BASE_URL: anthropic.url,
        BULLMQ_PREFIX: prefix,
    });
    redis = new Redis(redisUrl);
    publisher = new TestPublisher(redis);
    const allBlocks = [
      { type: 'http_request', config: { name: 'inventory', url: `${remote.url}/stock`, method: 'GET' } },
      { type: 'manipulate_image', config: { image_url: `${remote.url}/photo.png`, operation: 'invert', value: 100, ref: 'photo' } },
      { type: 'generate_text', config: { prompt: 'Describe {inventory.body.stock} items', ref: 'blurb' } },
      { type: 'send_email', config: { to: 'ada@customer.test', from: 'Shop <orders@example.com>', subject: 'Stock', body: '{result.blurb}' } },
      respond({ stock: '{inventory.body.stock}', image: '{result.photo}', blurb: '{result.blurb}' }),
    ];
    const guarded = publishedRoute({
      path: '/guarded',
      blocks: [
        { type: 'http_request', config: { name: 'meta', url: 'http://169.254.169.254/latest/meta-data/' } },
        { type: 'http_request', config: { name: 'hop', url: `${remote.url}/to-metadata` } },
        respond({ meta_status: '{meta.status}', meta_error: '{meta.error}', hop_error: '{hop.error}' }),
      ],
    });
    withIntegrations = publisher.newProject([publishedRoute({ path: '/all', blocks: allBlocks }), guarded], {
      integrations: {
        text_generation: { provider: 'anthropic', api_key_encrypted: secrets.encrypt('sk-ant-e2e'), default_model: 'claude-haiku-4-5' },
        email: { provider: 'sendgrid', api_key_encrypted: secrets.encrypt('SG.e2e'), verified_domains: ['example.com'] },
      },
    });
    without = publisher.newProject([publishedRoute({ path: '/all', blocks: allBlocks })]);
    await publisher.publish(withIntegrations);
    await publisher.publish(without);

    // What the worker's email queue runs, with the retry policy the gateway put on the job.
    const deliver = createEmailDeliveryProcessor({ redis, secrets, sendgridBaseUrl: sendgrid.url, logger: createLogger('e2e-worker', 'silent') });
    worker = new Worker(EMAIL_QUEUE_NAME, deliver, { connection: { url: redisUrl, maxRetriesPerRequest: null }, prefix });
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
    await worker?.close();
    const queue = new Queue(EMAIL_QUEUE_NAME, { connection: { url: redisUrl }, prefix });
    const ids = (await queue.getJobs()).map((job) => job.id!);
    if (ids.length) await redis.del(...ids.map((id) => deliveryMarkerKey(EMAIL_QUEUE_NAME, id)));
    await queue.obliterate({ force: true });
    await queue.close();
    if (images.length) await redis.del(...images.map(imageKey));
    await publisher.cleanup();
    redis.disconnect();
    await Promise.all([remote.close(), anthropic.close(), sendgrid.close()]);
    process.env = savedEnv;
  });

  it('runs all four blocks: response data, served filtered image, generated text, one email after two provider 500s', async () => {
    const response = await call(gateway.url, `${withIntegrations.subdomain}.localhost:8080`, '/all');
    expect(response.status).toBe(200);
    const body = response.json as { stock: number; image: string; blurb: string };
    expect(body.stock).toBe(7);
    expect(body.blurb).toBe('Claude says: Describe 7 items');
    expect(body.image).toMatch(new RegExp(`^http://${withIntegrations.subdomain}\\.localhost:8080/_images/[A-Za-z0-9_-]{22}\\.png$`));

    const path = new URL(body.image).pathname;
    images.push(path.slice('/_images/'.length, -'.png'.length));
    const served = await fetch(`${gateway.url}${path}`, { headers: { host: `${withIntegrations.subdomain}.localhost:8080` } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toContain('immutable');
    const bitmap = await decodeImage(Buffer.from(await served.arrayBuffer()), 100);
    PIXELS.forEach(([r, g, b, a], i) => expect([...bitmap.data.subarray(i * 4, i * 4 + 4)]).toEqual([255 - r, 255 - g, 255 - b, a]));

    // The request did not wait for delivery; the worker delivers exactly once after two 500s.
    await waitUntil(() => sendgrid.requests.length, (count) => count >= 3, 'three deliveries to SendGrid');
    const queue = new Queue(EMAIL_QUEUE_NAME, { connection: { url: redisUrl }, prefix });
    const [job] = await queue.getJobs(['completed', 'failed', 'active', 'delayed', 'waiting']);
    await waitUntil(() => job.isCompleted(), (done) => done, 'the email job to complete');
    await queue.close();
    expect(sendgrid.requests).toHaveLength(3);
    const accepted = JSON.parse(sendgrid.requests[2].body);
    expect(accepted).toMatchObject({ subject: 'Stock', content: [{ type: 'text/plain', value: 'Claude says: Describe 7 items' }] });
  });

  it('refuses 169.254.169.254, directly and through a redirect, without failing the flow', async () => {
    const response = await call(gateway.url, `${withIntegrations.subdomain}.localhost:8080`, '/guarded');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ meta_status: null, meta_error: 'egress_blocked', hop_error: 'egress_blocked' });
  });

  it('skips text generation and email without integrations and goes on', async () => {
    const before = { anthropic: anthropic.requests.length, sendgrid: sendgrid.requests.length };
    const response = await call(gateway.url, `${without.subdomain}.localhost:8080`, '/all');
    expect(response.status).toBe(200);
    const body = response.json as { stock: number; image: string; blurb: string | null };
    expect(body.stock).toBe(7);
    expect(body.blurb).toBeNull();
    images.push(new URL(body.image).pathname.slice('/_images/'.length, -'.png'.length));
    expect(anthropic.requests.length).toBe(before.anthropic);
    expect(sendgrid.requests.length).toBe(before.sendgrid);
  });
});
