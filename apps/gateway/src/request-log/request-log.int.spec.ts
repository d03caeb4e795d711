import { requestLogDetailsSchema, splitRequestLogMessage, type PublishedProject } from '@flowgate/contracts';
import { createLogger } from '@flowgate/platform';
import { Redis } from 'ioredis';
import { CompressionCodecs, CompressionTypes } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KafkaLogSender } from './kafka-log-sender';
import type { LogBatchSender } from './log-batch-sender';
import { RequestLogBuffer } from './request-log-buffer';
import { call, createTopic, deleteTopics, publishedRoute, readEvents, respond, spawnGateway, testKafka, TestPublisher, uniqueTopic, waitFor } from '@flowgate/testing';
import { startGateway } from '../testing/gateway-harness';

describe('gateway: request log on the real Kafka', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let project: PublishedProject;
  let host: string;
  const topics: string[] = [];
  const newTopic = async () => {
    const topic = uniqueTopic();
    topics.push(topic);
    await createTopic(testKafka(), topic, 3);
    return topic;
  };

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    project = publisher.newProject([
      publishedRoute({ path: '/ok', blocks: [respond({ ok: true })] }),
      publishedRoute({ path: '/keyed', auth: 'user', blocks: [respond({ ok: true })] }),
      publishedRoute({ path: '/refuse', query_params: [{ key: 'id', default: null }], blocks: [{ type: 'return_error', config: { status: 422, message: 'No order {params.id}', code: 'no_order' } }] }),
      publishedRoute({ path: '/broken', blocks: [{ type: 'decode_text', config: { input: 'zz', encoding: 'hex', ref: 'raw' } }, respond({ ok: true })] }),
    ]);
    await publisher.publish(project);
    host = `${project.subdomain}.localhost`;
  });

  afterAll(async () => {
    await publisher.cleanup();
    redis.disconnect();
    await deleteTopics(testKafka(), topics);
  });

  it('produces one event per request to a known project, errors included', async () => {
    const topic = await newTopic();
    const gateway = await startGateway({ KAFKA_LOG_TOPIC: topic });
    const key = await publisher.createKey(project.id, { ratelimit_min: 1 });
    try {
      const requests: [string, { method?: string; key?: string }, number][] = [
        ['/api/ok?x=1', {}, 200],
        ['/missing', {}, 404],
        ['/ok', { method: 'POST' }, 405],
        ['/keyed', {}, 401],
        ['/keyed', { key: key.key }, 200],
        ['/keyed', { key: key.key }, 429],
      ];
      for (const [path, options, status] of requests) expect((await call(gateway.url, host, path, options)).status).toBe(status);
      // Not logged: unknown projects and the gateway's own endpoints.
      await call(gateway.url, 'nobody-xyz.localhost', '/ok');
      await call(gateway.url, host, '/_healthz');

      const events = await readEvents(topic, requests.length);
      expect(events).toHaveLength(requests.length);
      // Sorted: a send goes to one partition, and the next may go to another, so events of one
      // project may be read in another order than they were sent.
      const byPath = events.map((e) => e.event);
      const okRoute = project.routes.find((r) => r.path === '/ok')!;
      const keyedRoute = project.routes.find((r) => r.path === '/keyed')!;
      expect(byPath.map((e) => [e.path, e.method, e.status, e.code, e.endpoint_id, e.key_id]).sort()).toEqual(
        [
        ['/api/ok', 'GET', 200, null, okRoute.endpoint_id, null],
        ['/missing', 'GET', 404, 'endpoint_not_found', null, null],
        ['/ok', 'POST', 405, 'method_not_allowed', null, null],
        ['/keyed', 'GET', 401, 'missing_api_key', keyedRoute.endpoint_id, null],
        ['/keyed', 'GET', 200, null, keyedRoute.endpoint_id, key.id],
        ['/keyed', 'GET', 429, 'rate_limited', keyedRoute.endpoint_id, key.id],
        ].sort(),
      );
      for (const { event } of events) {
        expect(event.project_id).toBe(project.id);
        expect(event.duration_ms).toBeGreaterThan(0);
        expect(Math.abs(Date.parse(event.time) - Date.now())).toBeLessThan(60_000);
      }
      expect(new Set(events.map((e) => e.event.id)).size).toBe(events.length);
    } finally {
      await gateway.close();
    }
  }, 40_000);

  it("keeps the query, the error message, the block that answered or failed, and the request's headers and the answer's size", async () => {
    const topic = await newTopic();
    const gateway = await startGateway({ KAFKA_LOG_TOPIC: topic });
    try {
      const ok = await call(gateway.url, host, '/ok?name=Ada&tags=a%20b', { headers: { 'x-request-id': 'r-17' } });
      expect(ok.status).toBe(200);
      expect((await call(gateway.url, host, '/refuse?id=7')).status).toBe(422);
      const broken = await call(gateway.url, host, '/broken');
      expect(broken.status).toBe(500);
      expect((await call(gateway.url, host, `/missing?${'q'.repeat(3000)}`)).status).toBe(404);
      const events = (await readEvents(topic, 4)).map((e) => e.event).sort((a, b) => a.time.localeCompare(b.time) || a.path.localeCompare(b.path));
      const byPath = new Map(events.map((e) => [e.path, e]));
      expect(byPath.get('/ok')).toMatchObject({ query: 'name=Ada&tags=a%20b', message: null, error_node_id: null });
      const okDetails = requestLogDetailsSchema.parse(JSON.parse(byPath.get('/ok')!.details!));
      expect(okDetails).toMatchObject({ body: null, body_bytes: null, body_truncated: false, response_bytes: Buffer.byteLength(ok.text) });
      expect(okDetails.headers).toEqual(expect.arrayContaining([['host', host], ['x-request-id', 'r-17']]));
      expect(byPath.get('/refuse')).toMatchObject({ query: 'id=7', code: 'no_order', message: 'No order 7', error_node_id: 'n1' });
      expect(byPath.get('/broken')).toMatchObject({ query: '', code: 'flow_error', error_node_id: 'n1' });
      expect(byPath.get('/broken')!.message).toBe((broken.json as { message: string }).message);
      expect(byPath.get('/missing')).toMatchObject({ query: 'q'.repeat(2048), code: 'endpoint_not_found', message: 'No endpoint at /missing', error_node_id: null });
    } finally {
      await gateway.close();
    }
  }, 40_000);

  it('logs a request whose caller left before the answer as 499 client_closed_request', async () => {
    // The flow waits on a remote that answers only when the test says so; the caller hangs up
    // 200 ms after the flow's call reached it (the request had arrived by then, however busy the machine).
    const held: http.ServerResponse[] = [];
    let reached: () => void = () => undefined;
    const reachedRemote = new Promise<void>((resolve) => (reached = resolve));
    const remote = http.createServer((_req, res) => {
      held.push(res);
      reached();
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    const remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    const slow = publisher.newProject([
      publishedRoute({ path: '/slow', blocks: [{ type: 'http_request', config: { name: 'wait', url: `${remoteUrl}/` } }, respond({ ok: true })] }),
    ]);
    await publisher.publish(slow);
    const topic = await newTopic();
    // The integrations read their settings from the environment (loopback is refused by default).
    const allowBefore = process.env.FLOWGATE_EGRESS_ALLOW_CIDRS;
    process.env.FLOWGATE_EGRESS_ALLOW_CIDRS = '127.0.0.0/8';
    const gateway = await startGateway({ KAFKA_LOG_TOPIC: topic });
    try {
      const abandoned = http.get({ host: '127.0.0.1', port: gateway.port, path: '/slow', headers: { host: `${slow.subdomain}.localhost` } });
      abandoned.on('error', () => undefined);
      await reachedRemote;
      setTimeout(() => abandoned.destroy(), 200);
      // Logged when the caller left, while the remote still holds its answer.
      const [{ event }] = await readEvents(topic, 1);
      expect(held).toHaveLength(1);
      expect(event).toMatchObject({ project_id: slow.id, path: '/slow', status: 499, code: 'client_closed_request', endpoint_id: slow.routes[0]!.endpoint_id });
      // No answer reached the caller: its size is unknown.
      expect(JSON.parse(event.details!)).toMatchObject({ response_bytes: null });
      expect(event.duration_ms).toBeGreaterThanOrEqual(150);
      // The gateway keeps serving once the remote answers the abandoned call.
      await new Promise((resolve) => held[0]!.end('{}', () => resolve(undefined)));
      expect((await call(gateway.url, host, '/ok')).status).toBe(200);
    } finally {
      await gateway.close();
      remote.closeAllConnections();
      await new Promise((resolve) => remote.close(resolve));
      if (allowBefore === undefined) delete process.env.FLOWGATE_EGRESS_ALLOW_CIDRS;
      else process.env.FLOWGATE_EGRESS_ALLOW_CIDRS = allowBefore;
    }
  });

  it('sends each batch whole to one partition, in as few messages as fit, every event in its order', async () => {
    const topic = await newTopic();
    const sender = new KafkaLogSender({ brokers: process.env.KAFKA_BROKERS!.split(','), topic, clientId: 'gateway-test', logger: createLogger('test', 'silent') });
    const projects = Array.from({ length: 10 }, () => randomUUID());
    const sends = 3;
    try {
      for (let send = 0; send < sends; send++) {
        await sender.send(Array.from({ length: 30 }, (_, i) => JSON.stringify({ project_id: projects[i % projects.length], path: `/send-${send}/${i}` })));
      }
    } finally {
      await sender.close();
    }

    const messages: { partition: number; events: { project_id: string; path: string }[] }[] = [];
    const consumer = testKafka().consumer({ groupId: `gateway-test-${randomUUID()}` });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({ eachMessage: async ({ partition, message }) => void messages.push({ partition, events: splitRequestLogMessage(message.value!.toString()).map((line) => JSON.parse(line)) }) });
      await waitFor(() => messages.flatMap((m) => m.events).length >= sends * 30, 'every event read back');
    } finally {
      await consumer.disconnect();
    }
    // Ten projects' events, and not one message per project: one message a send, in the order sent.
    expect(messages).toHaveLength(sends);
    const bySend = Array.from({ length: sends }, (_, send) => messages.find((m) => m.events[0]!.path.startsWith(`/send-${send}/`))!);
    bySend.forEach((message, send) => expect(message.events.map((e) => e.path)).toEqual(Array.from({ length: 30 }, (_, i) => `/send-${send}/${i}`)));
  });

  it('delivers everything buffered during a Kafka outage once Kafka answers again', async () => {
    const topic = await newTopic();
    const kafka = new KafkaLogSender({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      topic,
      clientId: 'gateway-test',
      logger: createLogger('test', 'silent'),
    });
    let down = true;
    const outage: LogBatchSender = {
      send: (events: string[]) => (down ? Promise.reject(new Error('broker unreachable')) : kafka.send(events)),
      close: () => kafka.close(),
    };
    const buffer = new RequestLogBuffer({ sender: outage, logger: createLogger('test', 'silent'), maxEvents: 10_000, retryMaxMs: 50 });
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) {
      const id = randomUUID();
      ids.push(id);
      buffer.push({
        v: 1,
        environment: 'live',
        trigger: 'http',
        details: null,
        id,
        project_id: project.id,
        endpoint_id: null,
        path: `/p/${i}`,
        method: 'GET',
        status: 200,
        code: null,
        duration_ms: 1,
        key_id: null,
        query: '',
        message: null,
        error_node_id: null,
        time: new Date().toISOString(),
      });
    }
    await waitFor(() => buffer.depth === 500, 'events held while Kafka is down');
    down = false;
    await waitFor(() => buffer.depth === 0, 'buffer drained after recovery', 15_000);
    const events = await readEvents(topic, 500);
    expect(events.map((e) => e.event.id).sort()).toEqual([...ids].sort());
    expect(await buffer.close()).toBe(0);
  }, 40_000);

  it('sends its events to Kafka gzip-compressed unless GATEWAY_LOG_COMPRESSION=none, and they read back as they were sent', async () => {
    // This process reads the topic with kafkajs: count the batches its GZIP codec had to decompress.
    const gzip = CompressionCodecs[CompressionTypes.GZIP];
    let decompressed = 0;
    CompressionCodecs[CompressionTypes.GZIP] = () => {
      const codec = gzip() as { compress(encoder: unknown): Promise<Buffer>; decompress(buffer: Buffer): Promise<Buffer> };
      return { compress: (encoder: unknown) => codec.compress(encoder), decompress: (buffer: Buffer) => (decompressed++, codec.decompress(buffer)) };
    };
    try {
      for (const compression of ['gzip', 'none'] as const) {
        decompressed = 0;
        const topic = await newTopic();
        const gateway = await spawnGateway({ KAFKA_LOG_TOPIC: topic, GATEWAY_LOG_COMPRESSION: compression });
        try {
          for (let i = 0; i < 5; i++) expect((await call(gateway.url, host, `/refuse?id=${i}`)).status).toBe(422);
          const events = await readEvents(topic, 5);
          expect(events.map(({ event }) => [event.path, event.query, event.message]).sort()).toEqual(
            [0, 1, 2, 3, 4].map((i) => ['/refuse', `id=${i}`, `No order ${i}`]),
          );
          if (compression === 'gzip') expect(decompressed).toBeGreaterThan(0);
          else expect(decompressed).toBe(0);
        } finally {
          await gateway.stop();
        }
      }
    } finally {
      CompressionCodecs[CompressionTypes.GZIP] = gzip;
    }
  }, 60_000);

  it('flushes buffered events when a gateway process gets SIGTERM', async () => {
    const topic = await newTopic();
    // A long linger keeps the events in the buffer until shutdown flushes them.
    const gateway = await spawnGateway({ KAFKA_LOG_TOPIC: topic, GATEWAY_LOG_LINGER_MS: '600000' });
    for (let i = 0; i < 20; i++) expect((await call(gateway.url, host, '/ok')).status).toBe(200);
    expect(await gateway.stop()).toBe(0);
    const events = await readEvents(topic, 20);
    expect(events).toHaveLength(20);
  }, 40_000);
});
