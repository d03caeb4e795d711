/**
 * Stream Text benchmark (`npm run bench -- stream`): what a gateway adds to the time to the
 * first streamed byte. A stand-in on 127.0.0.1 plays Anthropic's streaming Messages API (its
 * first text delta at once, the rest a little later, as a model writes). Measured one request at
 * a time, alternating: the time from sending the request to reading the first text event,
 * (a) from the stand-in directly (what any client of the model pays) and (b) through a gateway
 * process serving a Start → Stream Text endpoint (the real SDK in between). Prints the medians
 * and the difference; goal ≤ 5 ms added. One JSON line `{"bench":"stream",…}`.
 */
import { SecretBox } from '@flowgate/platform';
import { Redis } from 'ioredis';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { anthropicStreamWriter, DEPLOYMENT_NODE_FLAGS, publishedRoute, spawnGateway, startStandIn, TestPublisher } from '@flowgate/testing';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const REST_DELAY_MS = 20;

/** Milliseconds from sending the request to the first chunk holding a text event. */
function timeToFirstText(url: string, host: string, method: string, body?: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstAt = 0;
    const req = http.request(
      { hostname: target.hostname, port: target.port, path: target.pathname + target.search, method, headers: { host, 'content-type': 'application/json', 'x-api-key': 'sk-ant-bench' } },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (firstAt === 0 && (chunk.includes('"text_delta"') || chunk.includes('data: {"text"'))) firstAt = performance.now();
        });
        res.on('end', () => (firstAt === 0 ? reject(new Error(`no text event from ${url} (status ${res.statusCode})`)) : resolve(firstAt - started)));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const anthropic = await startStandIn((_req, res, raw) => {
    const writer = anthropicStreamWriter(res, JSON.parse(raw).model);
    writer.start('Once');
    setTimeout(() => writer.finish([' upon', ' a time']), REST_DELAY_MS);
  });
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const publisher = new TestPublisher(redis);
  const secrets = new SecretBox(process.env.FLOWGATE_ENCRYPTION_KEY!);
  const project = publisher.newProject([publishedRoute({ path: '/story', blocks: [{ type: 'stream_text', config: { prompt: 'A story', max_tokens: 100 } }] })], {
    integrations: { text_generation: { provider: 'anthropic', api_key_encrypted: secrets.encrypt('sk-ant-bench'), default_model: 'claude-haiku-4-5' }, email: null },
  });
  await publisher.publish(project);
  const gateway = await spawnGateway({ ANTHROPIC_BASE_URL: anthropic.url }, DEPLOYMENT_NODE_FLAGS);
  const host = `${project.subdomain}.localhost`;
  const direct = JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'A story' }] });
  try {
    for (let i = 0; i < 30; i++) {
      await timeToFirstText(`${gateway.url}/story`, host, 'GET');
      await timeToFirstText(`${anthropic.url}/v1/messages`, '127.0.0.1', 'POST', direct);
    }
    const viaGateway: number[] = [];
    const standIn: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      standIn.push(await timeToFirstText(`${anthropic.url}/v1/messages`, '127.0.0.1', 'POST', direct));
      viaGateway.push(await timeToFirstText(`${gateway.url}/story`, host, 'GET'));
    }
    const directMs = median(standIn);
    const gatewayMs = median(viaGateway);
    const added = gatewayMs - directMs;
    console.log(`first text event: stand-in directly ${directMs.toFixed(2)} ms, through gateway + Stream Text ${gatewayMs.toFixed(2)} ms (medians of ${ROUNDS})`);
    console.log(`added by the gateway: ${added.toFixed(2)} ms (goal ≤ 5 ms), ${(gatewayMs / directMs).toFixed(2)}× the direct time`);
    console.log(
      JSON.stringify({
        bench: 'stream',
        first_text_direct_ms: Number(directMs.toFixed(2)),
        first_text_gateway_ms: Number(gatewayMs.toFixed(2)),
        added_ms: Number(added.toFixed(2)),
        added_goal_ms: 5,
        rounds: ROUNDS,
      }),
    );
  } finally {
    await gateway.stop();
    await publisher.cleanup();
    redis.disconnect();
    await anthropic.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
