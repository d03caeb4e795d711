/**
 * Inbound benchmark (`npm run bench -- inbound`).
 *
 * (a) A cache hit against a public one-block endpoint: one gateway process (its deployed Node
 *     flags) serves `/plain` (Start → Respond) and `/cached` (the same flow with `cache`),
 *     published into Redis as the control plane would. autocannon alternates plain, cached,
 *     plain, cached (BENCH_SECONDS each, BENCH_CONNECTIONS connections) and prints the hit's
 *     requests per second as a ratio of the plain run just before it. Goal: ≥ 0.8× (a hit is one Redis script call instead of a flow).
 * (b) What checking a 20-field body against its schema costs per request, in this process: the
 *     validator the gateway compiles (inbound/body-validator.ts) against JSON.parse of the same
 *     body, which every POST pays anyway.
 * Prints one JSON line `{"bench":"inbound",…}`.
 */
import { Redis } from 'ioredis';
import { performance } from 'node:perf_hooks';
import { call, DEPLOYMENT_NODE_FLAGS, publishedRoute, respond, spawnGateway, TestPublisher } from '@flowgate/testing';
import { compileBodyValidator } from '../apps/gateway/src/inbound/body-validator';
import { load, type LoadResult } from './gateway/load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function cacheHitAgainstPlain(): Promise<{ plain: LoadResult[]; cached: LoadResult[]; ratios: number[] }> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const publisher = new TestPublisher(redis);
  const body = { hello: 'bench', items: [1, 2, 3] };
  const project = publisher.newProject([
    publishedRoute({ path: '/plain', blocks: [respond(body)] }),
    { ...publishedRoute({ path: '/cached', blocks: [respond(body)] }), cache: { ttl_s: 3600, vary_query: true, vary_headers: [], per_key: false } },
  ]);
  await publisher.publish(project);
  const gateway = await spawnGateway({}, DEPLOYMENT_NODE_FLAGS);
  const hostName = `${project.subdomain}.localhost`;
  const host = { host: hostName };
  try {
    const warm = await call(gateway.url, hostName, '/cached');
    if (warm.status !== 200) throw new Error(`/cached answered ${warm.status}`);
    await load(`${gateway.url}/plain`, { connections: CONNECTIONS, seconds: 2, headers: host });
    const plain: LoadResult[] = [];
    const cached: LoadResult[] = [];
    for (let round = 0; round < 2; round++) {
      plain.push(await load(`${gateway.url}/plain`, { connections: CONNECTIONS, seconds: SECONDS, headers: host }));
      cached.push(await load(`${gateway.url}/cached`, { connections: CONNECTIONS, seconds: SECONDS, headers: host }));
    }
    const hit = await call(gateway.url, hostName, '/cached');
    if (hit.headers['x-cache'] !== 'HIT') throw new Error('the cached endpoint did not answer from the cache');
    return { plain, cached, ratios: cached.map((run, i) => run.requestsPerSecond / plain[i].requestsPerSecond) };
  } finally {
    await gateway.stop();
    await publisher.cleanup();
    redis.disconnect();
  }
}

/** µs per call of `work`, over enough calls to take ~1 s. */
function microsPerCall(work: () => void): number {
  let calls = 1000;
  for (;;) {
    const started = performance.now();
    for (let i = 0; i < calls; i++) work();
    const elapsed = performance.now() - started;
    if (elapsed > 1000) return (elapsed * 1000) / calls;
    calls *= 4;
  }
}

function validationCost(): { parseUs: number; validateUs: number } {
  const properties: Record<string, object> = {};
  const value: Record<string, unknown> = {};
  for (let i = 0; i < 20; i++) {
    const kind = i % 4;
    properties[`field_${i}`] = [{ type: 'string', maxLength: 100 }, { type: 'integer', minimum: 0 }, { type: 'boolean' }, { type: 'string', pattern: '^[a-z]+-[0-9]+$' }][kind];
    value[`field_${i}`] = ['some text', 42, true, 'order-17'][kind];
  }
  const validate = compileBodyValidator({ type: 'object', required: Object.keys(properties), additionalProperties: false, properties });
  const text = JSON.stringify(value);
  if (validate(JSON.parse(text)) !== null) throw new Error('the bench body does not match its schema');
  const parseUs = microsPerCall(() => JSON.parse(text));
  const validateUs = microsPerCall(() => validate(JSON.parse(text))) - parseUs;
  return { parseUs, validateUs };
}

async function main(): Promise<void> {
  const { plain, cached, ratios } = await cacheHitAgainstPlain();
  for (let i = 0; i < plain.length; i++) {
    console.log(`plain  ${plain[i].requestsPerSecond} req/s  p50 ${plain[i].p50Ms} ms  p99 ${plain[i].p99Ms} ms`);
    console.log(`cached ${cached[i].requestsPerSecond} req/s  p50 ${cached[i].p50Ms} ms  p99 ${cached[i].p99Ms} ms  → ${ratios[i].toFixed(2)}× plain (goal ≥ 0.80×)`);
  }
  const { parseUs, validateUs } = validationCost();
  console.log(`20-field body: JSON.parse ${parseUs.toFixed(2)} µs, schema check ${validateUs.toFixed(2)} µs more per request`);
  console.log(
    JSON.stringify({
      bench: 'inbound',
      cache_hit_vs_plain: ratios.map((ratio) => Number(ratio.toFixed(2))),
      cache_hit_goal: 0.8,
      validation_us_20_fields: Number(validateUs.toFixed(2)),
      json_parse_us_20_fields: Number(parseUs.toFixed(2)),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
