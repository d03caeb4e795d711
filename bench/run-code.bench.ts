/**
 * Run Code benchmark (`npm run bench -- run-code`): one gateway process serving two endpoints
 * of one project, measured side by side with autocannon, alternating twice:
 *   set_variable — Start → Set Variable (`sum` = 3) → Respond `{sum}`;
 *   run_code     — Start → Run Code (`return input.a + input.b`, inputs a = 1, b = 2) → Respond `{sum}`.
 * Both answer `{"sum":3}`. Prints req/s, p50/p99, the gateway's peak RSS and the ratio
 * run_code / set_variable (goal ≥ 0.5), and one JSON line `{"bench":"run-code",…}`.
 * Env: BENCH_SECONDS (8), BENCH_CONNECTIONS (10), REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { type Block, DEPLOYMENT_NODE_FLAGS, publishedRoute, spawnGateway, TestPublisher } from '@flowgate/testing';
import { ensureServices } from '../scripts/lib/services';
import { load, type LoadResult } from './gateway/load';
import { get, sampleRss } from './gateway/processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = 2;
const EXPECTED = JSON.stringify({ sum: 3 });
const respondSum: Block = { type: 'respond', config: { status: 200, body: { sum: '{result.sum}' } } };
const FLOWS = {
  set_variable: [{ type: 'set_variable', config: { name: 'sum', value: 3 } }, respondSum],
  run_code: [
    { type: 'run_code', config: { code: 'return input.a + input.b', inputs: [{ name: 'a', value: 1 }, { name: 'b', value: 2 }], ref: 'sum' } },
    respondSum,
  ],
} satisfies Record<string, Block[]>;
type Name = keyof typeof FLOWS;

async function main(): Promise<void> {
  await ensureServices({ redis: true, kafka: true, quiet: true });
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const publisher = new TestPublisher(redis);
  const project = publisher.newProject(
    (Object.keys(FLOWS) as Name[]).map((name) => publishedRoute({ path: `/${name}`, blocks: FLOWS[name] })),
    { subdomain: `bench-code-${randomBytes(4).toString('hex')}` },
  );
  await publisher.publish(project);
  const gateway = await spawnGateway({}, DEPLOYMENT_NODE_FLAGS);
  const headers = { host: `${project.subdomain}.localhost` };
  try {
    const results: Record<Name, LoadResult[]> = { set_variable: [], run_code: [] };
    let peakRss = 0;
    for (const name of Object.keys(FLOWS) as Name[]) {
      const probe = await get(gateway.port, `/${name}`, headers);
      if (probe.status !== 200 || probe.body !== EXPECTED) throw new Error(`${name} answered ${probe.status} ${probe.body}`);
      await load(`${gateway.url}/${name}`, { connections: CONNECTIONS, seconds: WARMUP_SECONDS, headers });
    }
    for (let round = 0; round < 2; round++) {
      for (const name of Object.keys(FLOWS) as Name[]) {
        const stop = sampleRss(gateway.child.pid!);
        const result = await load(`${gateway.url}/${name}`, { connections: CONNECTIONS, seconds: SECONDS, headers });
        peakRss = Math.max(peakRss, stop());
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        results[name].push(result);
        process.stdout.write(`${name.padEnd(13)} ${String(result.requestsPerSecond).padStart(7)} req/s   p50 ${result.p50Ms} ms   p99 ${result.p99Ms} ms\n`);
      }
    }
    const rate = (name: Name) => Math.round(results[name].reduce((sum, result) => sum + result.requestsPerSecond, 0) / results[name].length);
    const ratio = Math.round((rate('run_code') / rate('set_variable')) * 100) / 100;
    const peakRssMb = Math.round(peakRss / 1024 / 1024);
    process.stdout.write(`run_code / set_variable: ${ratio}× (goal ≥ 0.5×)   gateway peak RSS ${peakRssMb} MB\n`);
    process.stdout.write(`${JSON.stringify({ bench: 'run-code', set_variable_rps: rate('set_variable'), run_code_rps: rate('run_code'), ratio, peak_rss_mb: peakRssMb })}\n`);
  } finally {
    await gateway.stop();
    await publisher.cleanup();
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
