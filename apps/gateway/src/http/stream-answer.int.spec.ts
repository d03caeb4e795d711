/**
 * Stream Text through a real gateway: flows compiled by the engine and published to Redis, the
 * real Anthropic SDK pointed at a stand-in on 127.0.0.1 that streams Anthropic's SSE events and
 * holds the rest of its answer until the test lets it go, and the request log on the real Kafka.
 */
import type { PublishedProject } from '@flowgate/contracts';
import { SecretBox } from '@flowgate/platform';
import { Redis } from 'ioredis';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  anthropicStreamWriter,
  call,
  createTopic,
  deleteTopics,
  openEventStream,
  publishedRoute,
  readEvents,
  type StandIn,
  sendJson,
  startStandIn,
  testKafka,
  TestPublisher,
  uniqueTopic,
  waitFor,
} from '@flowgate/testing';
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';

jest.setTimeout(60_000);

describe('Stream Text through the gateway (stand-in Anthropic streaming SSE, real SDK)', () => {
  const savedEnv = { ...process.env };
  const secrets = new SecretBox(process.env.FLOWGATE_ENCRYPTION_KEY ?? '0'.repeat(64));
  const topic = uniqueTopic();
  /** Per prompt: lets the stand-in finish (or fail) its held answer. */
  const held = new Map<string, ReturnType<typeof anthropicStreamWriter>>();
  /** Prompts whose upstream connection the stand-in saw closed before it finished. */
  const cutOff = new Set<string>();
  let anthropic: StandIn;
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let project: PublishedProject;
  let without: PublishedProject;
  let host: string;

  beforeAll(async () => {
    anthropic = await startStandIn((_req, res, raw) => {
      const body = JSON.parse(raw);
      const prompt: string = body.messages[0].content;
      if (prompt.startsWith('refuse')) return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `model: ${body.model}` } });
      const writer = anthropicStreamWriter(res, body.model);
      res.on('close', () => {
        if (!res.writableEnded) cutOff.add(prompt);
      });
      writer.start('Once upon');
      held.set(prompt, writer);
    });
    Object.assign(process.env, { ANTHROPIC_BASE_URL: anthropic.url });
    await createTopic(testKafka(), topic, 1);
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    const story = publishedRoute({ path: '/story', query_params: [{ key: 'name', default: null }], blocks: [{ type: 'stream_text', config: { prompt: 'story for {params.name}', max_tokens: 300 } }] });
    project = publisher.newProject([story], {
      integrations: { text_generation: { provider: 'anthropic', api_key_encrypted: secrets.encrypt('sk-ant-stream'), default_model: 'claude-haiku-4-5' }, email: null },
    });
    without = publisher.newProject([story]);
    await publisher.publish(project);
    await publisher.publish(without);
    host = `${project.subdomain}.localhost`;
    gateway = await startGateway({ KAFKA_LOG_TOPIC: topic });
  });

  afterAll(async () => {
    await gateway?.close();
    await publisher.cleanup();
    redis.disconnect();
    await anthropic.close();
    await deleteTopics(testKafka(), [topic]);
    process.env = savedEnv;
  });

  const heldFor = (name: string) => waitFor(() => held.get(`story for ${name}`), `the stand-in holding the answer for ${name}`);

  it('sends the first text event while the model is still writing, then the rest and `done` with the usage', async () => {
    const answer = await openEventStream(gateway.url, host, '/story?name=Ada');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    // The stand-in has sent only its first delta and holds the rest until this event is read.
    expect(await answer.next()).toEqual({ event: null, data: JSON.stringify({ text: 'Once upon' }) });
    (await heldFor('Ada')).finish([' a time', '.']);
    expect(await answer.rest()).toEqual([
      { event: null, data: JSON.stringify({ text: ' a time' }) },
      { event: null, data: JSON.stringify({ text: '.' }) },
      { event: 'done', data: JSON.stringify({ usage: { input_tokens: 7, output_tokens: 4 } }) },
    ]);
    const sent = JSON.parse(anthropic.requests.find((request) => request.body.includes('story for Ada'))!.body);
    expect(sent).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 300, stream: true, messages: [{ role: 'user', content: 'story for Ada' }] });
  });

  it('cancels the upstream call when the caller disconnects mid-answer', async () => {
    const answer = await openEventStream(gateway.url, host, '/story?name=Grace');
    expect(await answer.next()).toEqual({ event: null, data: JSON.stringify({ text: 'Once upon' }) });
    answer.disconnect();
    await waitFor(() => cutOff.has('story for Grace'), 'the stand-in to see its connection closed');
  });

  it('sends a failure mid-answer as `event: error` (the status was already sent)', async () => {
    const answer = await openEventStream(gateway.url, host, '/story?name=Linus');
    await answer.next();
    (await heldFor('Linus')).fail('overloaded_error', 'Overloaded');
    expect(await answer.rest()).toEqual([{ event: 'error', data: JSON.stringify({ code: 'flow_error', message: 'Stream Text (n1): anthropic: Overloaded' }) }]);
  });

  it('answers JSON errors when the stream cannot start: a provider refusal, no integration', async () => {
    const refusedRoute = publishedRoute({ path: '/refused', blocks: [{ type: 'stream_text', config: { prompt: 'refuse me', model: 'claude-nope' } }] });
    const refusing = publisher.newProject([refusedRoute], {
      integrations: { text_generation: { provider: 'anthropic', api_key_encrypted: secrets.encrypt('sk-ant-stream'), default_model: null }, email: null },
    });
    await publisher.publish(refusing);
    const refused = await call(gateway.url, `${refusing.subdomain}.localhost`, '/refused');
    expect({ status: refused.status, body: refused.json }).toEqual({
      status: 500,
      body: { success: false, code: 'flow_error', message: 'Stream Text (n1): anthropic: model: claude-nope (HTTP 404)' },
    });
    const missing = await call(gateway.url, `${without.subdomain}.localhost`, '/story?name=Nobody');
    expect(missing.status).toBe(500);
    expect(missing.json).toMatchObject({ code: 'flow_error', message: "Stream Text (n1): needs the project's text-generation integration (Settings → Integrations)" });
  });

  it('logs a streamed request once its last byte is out: status 200, `streamed`, its duration over the whole stream', async () => {
    const answer = await openEventStream(gateway.url, host, '/story?name=Edsger');
    await answer.next();
    const firstEventAt = performance.now();
    const writer = await heldFor('Edsger');
    // The gateway's duration runs from arrival to the last byte: at least from the first event to the release.
    await sleep(50);
    const heldMs = performance.now() - firstEventAt;
    writer.finish(['!']);
    await answer.rest();

    const events = (await readEvents(topic, 6, 50_000)).map((read) => read.event);
    const logged = events.find((event) => event.query === 'name=Edsger')!;
    expect(logged).toMatchObject({ project_id: project.id, path: '/story', status: 200, code: null, streamed: true });
    expect(logged.duration_ms).toBeGreaterThanOrEqual(heldMs);
    // The caller that went away mid-answer: 499, as any request whose caller left.
    expect(events.find((event) => event.query === 'name=Grace')).toMatchObject({ status: 499, code: 'client_closed_request', streamed: true });
    expect(events.find((event) => event.query === 'name=Linus')).toMatchObject({ status: 200, code: 'flow_error', error_node_id: 'n1', streamed: true });
  });
});
