/**
 * Gateway benchmark (`node scripts/run-ts.js bench/gateway.bench.ts`, part of `npm run bench`).
 *
 * In one run, autocannon (50 connections, ~10 s each after a warm-up) against:
 *   (a) raw    — a separate bare node:http process answering the same JSON;
 *   (b) public — a gateway process on a public 3-block flow (set_variable → manipulate_text
 *                uppercase → respond), published into Redis here as the control plane would;
 *   (c) keyed  — the same flow behind a user key (limit KEY_LIMIT_PER_MIN, see there);
 *   (d) node-red — Node-RED 4 with http in → change → http response.
 * Prints req/s, p50/p99, the gateway's peak RSS, ratios against raw, and one JSON line
 * `{"bench":"gateway",…}`. Targets: public ≥ 0.50× raw, keyed ≥ 0.35× raw, p99 < 10 ms,
 * RSS < 150 MB. Client and servers share the machine's cores, as they do here (2 cores).
 * The gateway and the raw server run as plain JavaScript compiled here with the repository's
 * SWC settings (bench/gateway/build.ts), as a deployment would run them; BENCH_FROM_SOURCE=1
 * runs them through scripts/run-ts.js instead (same speed, ~90 MB more RSS for the SWC hook).
 * The gateway runs with the Node flags docs/gateway.md recommends for it (GATEWAY_NODE_FLAGS,
 * default `--max-semi-space-size=8`: a smaller young generation, ~25 MB less RSS).
 * Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_FROM_SOURCE, GATEWAY_NODE_FLAGS,
 * REDIS_URL, KAFKA_BROKERS.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import { publishedRoute, TestPublisher, type Block } from '../apps/gateway/src/testing/publication';
import { buildForBench } from './gateway/build';
import { load, type LoadResult } from './gateway/load';
import { startNodeRed } from './gateway/node-red';
import { cpuSeconds, freePort, get, kafkaBrokerPid, sampleRss, startProcess, waitUntilServing, type Service } from './gateway/processes';

const ROOT = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = 3;
const EXPECTED = JSON.stringify({ result: 'HELLO BENCH' });
const FROM_SOURCE = process.env.BENCH_FROM_SOURCE === '1';
const GATEWAY_NODE_FLAGS = (process.env.GATEWAY_NODE_FLAGS ?? '--max-semi-space-size=8').split(' ').filter(Boolean);
const BUILD_DIR = path.join(ROOT, '.cache/bench/gateway-build');

/** `node <entry>`: compiled JavaScript, or the TypeScript source through the SWC hook. */
function entryArgs(tsPath: string): string[] {
  return FROM_SOURCE ? ['scripts/run-ts.js', tsPath] : [path.join(BUILD_DIR, tsPath.replace(/\.ts$/, '.js'))];
}

const FLOW: Block[] = [
  { type: 'set_variable', config: { name: 'word', value: 'hello {params.name}' } },
  { type: 'manipulate_text', config: { input: '{local.word}', operation: 'uppercase', ref: 'loud' } },
  { type: 'respond', config: { status: 200, body: { result: '{result.loud}' } } },
];
const QUERY = [{ key: 'name', default: null }];
/**
 * The bench key's `ratelimit_min`: above what the run can reach (warm-up + measurement at up to
 * ~50k req/s stays below 1M in any minute), so no request is refused, as the bench requires
 * 2xx only. The limit does not make the window larger: the exact sliding-window log holds every
 * request accepted in the last 60 s whatever the limit (only a limit below the traffic would cap
 * it, by refusing). So the keyed figure includes a window of ~the whole run's requests.
 */
const KEY_LIMIT_PER_MIN = 1_000_000;

interface Target {
  name: 'raw' | 'public' | 'keyed' | 'node_red';
  port: number;
  path: string;
  headers: Record<string, string>;
  pid: number;
}

/** Other processes whose CPU the requests cost (same machine, same cores). */
interface Accounting {
  redisPid: number | null;
  kafkaPid: number | null;
}

type Measured = LoadResult & { peakRssMb: number; cpuUsPerRequest: { server: number; redis: number; kafka: number } };

async function measure(target: Target, accounting: Accounting): Promise<Measured> {
  const url = `http://127.0.0.1:${target.port}${target.path}`;
  const probe = await get(target.port, target.path, target.headers);
  if (probe.status !== 200 || JSON.stringify(JSON.parse(probe.body)) !== EXPECTED) {
    throw new Error(`${target.name} answered ${probe.status} ${probe.body}, expected ${EXPECTED}`);
  }
  await load(url, { connections: CONNECTIONS, seconds: WARMUP_SECONDS, headers: target.headers });
  const stopSampling = sampleRss(target.pid);
  const pids = [target.pid, accounting.redisPid, accounting.kafkaPid];
  const cpuBefore = pids.map(cpuSeconds);
  const result = await load(url, { connections: CONNECTIONS, seconds: SECONDS, headers: target.headers });
  const cpuAfter = pids.map(cpuSeconds);
  const peakRssMb = Math.round(stopSampling() / 1024 / 1024);
  const perRequest = (i: number) => Math.round(((cpuAfter[i]! - cpuBefore[i]!) * 1e6) / Math.max(1, result.total));
  const cpuUsPerRequest = { server: perRequest(0), redis: perRequest(1), kafka: perRequest(2) };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  process.stdout.write(
    `${target.name.padEnd(9)} ${String(result.requestsPerSecond).padStart(7)} req/s   p50 ${result.p50Ms} ms   p99 ${result.p99Ms} ms   peak RSS ${peakRssMb} MB   ` +
      `CPU/request: server ${cpuUsPerRequest.server} µs, redis ${cpuUsPerRequest.redis} µs, kafka broker ${cpuUsPerRequest.kafka} µs\n`,
  );
  return { ...result, peakRssMb, cpuUsPerRequest };
}

async function main(): Promise<void> {
  const { ensureServices } = require(path.join(ROOT, 'scripts/lib/services')) as {
    ensureServices(options: { redis: boolean; kafka: boolean; quiet?: boolean }): Promise<unknown>;
  };
  await ensureServices({ redis: true, kafka: true, quiet: true });
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(redisUrl);
  const publisher = new TestPublisher(redis);
  const services: Service[] = [];
  let nodeRedCleanup = (): void => undefined;
  try {
    const project = publisher.newProject([
      publishedRoute({ path: '/shout', query_params: QUERY, blocks: FLOW }),
      publishedRoute({ path: '/shout-keyed', auth: 'user', query_params: QUERY, blocks: FLOW }),
    ], { subdomain: `bench-${randomBytes(4).toString('hex')}` });
    await publisher.publish(project);
    const key = await publisher.createKey(project.id, { permission: 'user', ratelimit_min: KEY_LIMIT_PER_MIN });
    const host = `${project.subdomain}.localhost`;

    const [rawPort, gatewayPort, nodeRedPort] = await Promise.all([freePort(), freePort(), freePort()]);
    if (!FROM_SOURCE) buildForBench(ROOT, BUILD_DIR);
    const raw = startProcess('raw', [...entryArgs('bench/gateway/raw-server.ts'), String(rawPort)], process.env, ROOT);
    const gateway = startProcess(
      'gateway',
      [...GATEWAY_NODE_FLAGS, ...entryArgs('apps/gateway/src/main.ts')],
      {
        ...process.env,
        NODE_ENV: 'production',
        GATEWAY_PORT: String(gatewayPort),
        GATEWAY_HOST: '127.0.0.1',
        REDIS_URL: redisUrl,
        KAFKA_LOG_TOPIC: process.env.BENCH_KAFKA_LOG_TOPIC ?? 'flowgate.bench.request-logs',
        LOG_LEVEL: 'warn',
        FLOWGATE_SERVICE_TOKEN: process.env.FLOWGATE_SERVICE_TOKEN ?? randomBytes(24).toString('hex'),
        FLOWGATE_ENCRYPTION_KEY: process.env.FLOWGATE_ENCRYPTION_KEY ?? randomBytes(32).toString('hex'),
      },
      ROOT,
    );
    const nodeRed = startNodeRed(ROOT, nodeRedPort);
    nodeRedCleanup = nodeRed.cleanup;
    services.push(raw, gateway, nodeRed);
    await Promise.all([
      waitUntilServing(raw, rawPort, '/'),
      waitUntilServing(gateway, gatewayPort, '/api/shout?name=bench', { host }),
      waitUntilServing(nodeRed, nodeRedPort, '/shout?name=bench'),
    ]);

    process.stdout.write(
      `gateway benchmark: ${CONNECTIONS} connections, ${SECONDS} s per target (after ${WARMUP_SECONDS} s warm-up), ` +
        `${FROM_SOURCE ? 'TypeScript source via the SWC hook' : 'compiled JavaScript'}, gateway node flags: ${GATEWAY_NODE_FLAGS.join(' ') || 'none'}\n`,
    );
    const accounting: Accounting = { redisPid: Number((/process_id:(\d+)/.exec(await redis.info('server')) ?? [])[1]) || null, kafkaPid: kafkaBrokerPid() };
    process.stdout.write(`bench key: ratelimit_min ${KEY_LIMIT_PER_MIN} (not reachable in this run; the window log holds every request of the last 60 s)\n`);
    const results = {
      raw: await measure({ name: 'raw', port: rawPort, path: '/shout?name=bench', headers: {}, pid: raw.child.pid! }, accounting),
      public: await measure({ name: 'public', port: gatewayPort, path: '/api/shout?name=bench', headers: { host }, pid: gateway.child.pid! }, accounting),
      keyed: await measure({
        name: 'keyed',
        port: gatewayPort,
        path: '/api/shout-keyed?name=bench',
        headers: { host, authorization: `Bearer ${key.key}` },
        pid: gateway.child.pid!,
      }, accounting),
      node_red: await measure({ name: 'node_red', port: nodeRedPort, path: '/shout?name=bench', headers: {}, pid: nodeRed.child.pid! }, accounting),
    };

    const ratio = (n: number) => Math.round((n / results.raw.requestsPerSecond) * 100) / 100;
    const gatewayRssMb = Math.max(results.public.peakRssMb, results.keyed.peakRssMb);
    const summary = {
      bench: 'gateway',
      connections: CONNECTIONS,
      seconds: SECONDS,
      runtime: FROM_SOURCE ? 'ts-source' : 'compiled-js',
      gateway_node_flags: GATEWAY_NODE_FLAGS.join(' '),
      raw: { rps: results.raw.requestsPerSecond, p50_ms: results.raw.p50Ms, p99_ms: results.raw.p99Ms },
      public: {
        rps: results.public.requestsPerSecond,
        p50_ms: results.public.p50Ms,
        p99_ms: results.public.p99Ms,
        ratio: ratio(results.public.requestsPerSecond),
        cpu_us_per_request: results.public.cpuUsPerRequest,
      },
      keyed: {
        rps: results.keyed.requestsPerSecond,
        p50_ms: results.keyed.p50Ms,
        p99_ms: results.keyed.p99Ms,
        ratio: ratio(results.keyed.requestsPerSecond),
        cpu_us_per_request: results.keyed.cpuUsPerRequest,
      },
      key_ratelimit_min: KEY_LIMIT_PER_MIN,
      node_red: {
        rps: results.node_red.requestsPerSecond,
        p50_ms: results.node_red.p50Ms,
        p99_ms: results.node_red.p99Ms,
        ratio: ratio(results.node_red.requestsPerSecond),
      },
      gateway_rss_mb: gatewayRssMb,
      targets: {
        public_ratio_ge_0_50: ratio(results.public.requestsPerSecond) >= 0.5,
        keyed_ratio_ge_0_35: ratio(results.keyed.requestsPerSecond) >= 0.35,
        p99_lt_10_ms: results.public.p99Ms < 10 && results.keyed.p99Ms < 10,
        rss_lt_150_mb: gatewayRssMb < 150,
      },
    };
    process.stdout.write(
      `ratios vs raw: public ${summary.public.ratio}×, keyed ${summary.keyed.ratio}×, node-red ${summary.node_red.ratio}×; ` +
        `gateway ${Math.round((results.public.requestsPerSecond / results.node_red.requestsPerSecond) * 10) / 10}× node-red; ` +
        `gateway peak RSS ${gatewayRssMb} MB\n`,
    );
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    nodeRedCleanup();
    await publisher.cleanup();
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
