/**
 * Gateway benchmark (`node scripts/run-ts.js bench/gateway.bench.ts`, part of `npm run bench`).
 *
 * In one run, autocannon (50 connections, ~10 s each after a warm-up) against:
 *   (a) raw    — a separate bare node:http process answering the same JSON;
 *   (b) public — a gateway process on a public 3-block flow (set_variable → manipulate_text
 *                uppercase → respond), published into Redis here as the control plane would;
 *   (c) keyed  — the same flow behind a user key (limit KEY_LIMIT_PER_MIN, see there);
 *   (d) node-red — Node-RED 4 with http in → change → http response;
 *   (f) secrets_idle, secrets_read — (b) in a project with ten secrets: a flow that reads none
 *       (what masking costs a request that does not fail: nothing), and the flow with a block
 *       reading `{secrets.TOKEN_0}` first (one GET of `fg:fresh:{id}` per request, see
 *       docs/secrets-and-preview.md);
 *   (e) public_cluster, keyed_cluster — (b) and (c) on a second gateway process whose Redis is
 *       a local Redis Cluster of 3 masters + 3 replicas (scripts/lib/redis-cluster.js), the
 *       project and key published into it (the cluster's Redis CPU is not attributed).
 * Each of (b)–(d) runs right after a raw run of its own, and its ratio is to that run.
 * Prints req/s, p50/p99, the gateway's peak RSS, ratios against raw, and one JSON line
 * `{"bench":"gateway",…}`. Targets: public ≥ 0.50× raw, keyed ≥ 0.35× raw, p99 < 10 ms,
 * RSS < 150 MB. Client and servers share the machine's cores, as they do here (2 cores).
 * The gateway runs as the plain JavaScript of the production build (`npm run build`'s backend
 * part, rebuilt into dist/ here by scripts/build.js), as a deployment runs it; the raw server is
 * plain JavaScript. BENCH_FROM_SOURCE=1 runs the gateway through scripts/run-ts.js instead
 * (same speed, ~90 MB more RSS for the SWC hook).
 * The gateway runs with the Node flags docs/gateway.md recommends for it (GATEWAY_NODE_FLAGS,
 * default the deployed ones, scripts/lib/node-flags.js: a smaller young generation, ~45 MB
 * less RSS, and no GC helper threads competing for the cores).
 * Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_FROM_SOURCE, GATEWAY_NODE_FLAGS,
 * BENCH_TARGETS (comma list of public, keyed, node_red, public_cluster, keyed_cluster; default all; raw always runs, the
 * ratios need it), REDIS_URL, KAFKA_BROKERS.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freshnessKey } from '@flowgate/contracts';
import { SecretBox } from '@flowgate/platform';
import { Redis } from 'ioredis';
import { type AppProcess, type Block, DEPLOYMENT_NODE_FLAGS, freePort, publishedRoute, startProcess, TestPublisher, waitReady } from '@flowgate/testing';
import { ensureServices } from '../scripts/lib/services';
import { startBenchCluster, type BenchCluster } from './gateway/cluster';
import { load, type LoadResult } from './gateway/load';
import { startNodeRed } from './gateway/node-red';
import { cpuSeconds, get, kafkaBrokerPid, sampleRss } from './gateway/processes';

const ROOT = path.resolve(__dirname, '..');
/** `npm run build`'s backend part (scripts/build.js): the gateway runs from dist/ as deployed. */
const { buildBackend } = require(path.join(ROOT, 'scripts/build')) as { buildBackend(outDir?: string): number };
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = 3;
const EXPECTED = JSON.stringify({ result: 'HELLO BENCH' });
const FROM_SOURCE = process.env.BENCH_FROM_SOURCE === '1';
const GATEWAY_NODE_FLAGS = process.env.GATEWAY_NODE_FLAGS?.split(' ').filter(Boolean) ?? DEPLOYMENT_NODE_FLAGS;
const OPTIONAL_TARGETS = ['public', 'keyed', 'secrets_idle', 'secrets_read', 'node_red', 'public_cluster', 'keyed_cluster'] as const;
const TARGETS = new Set(process.env.BENCH_TARGETS ? process.env.BENCH_TARGETS.split(',').map((name) => name.trim()) : OPTIONAL_TARGETS);
for (const name of TARGETS) {
  if (!(OPTIONAL_TARGETS as readonly string[]).includes(name)) throw new Error(`BENCH_TARGETS: unknown target ${name} (known: ${OPTIONAL_TARGETS.join(', ')})`);
}

/** `node <entry>`: the production build's JavaScript, or the TypeScript source through the SWC hook. */
function entryArgs(tsPath: string): string[] {
  return FROM_SOURCE ? ['scripts/run-ts.js', tsPath] : [path.join(ROOT, 'dist', tsPath.replace(/\.ts$/, '.js'))];
}

const FLOW: Block[] = [
  { type: 'set_variable', config: { name: 'word', value: 'hello {params.name}' } },
  { type: 'manipulate_text', config: { input: '{local.word}', operation: 'uppercase', ref: 'loud' } },
  { type: 'respond', config: { status: 200, body: { result: '{result.loud}' } } },
];
const QUERY = [{ key: 'name', default: null }];
const SECRET_FLOW: Block[] = [{ type: 'set_variable', config: { name: 'token', value: 'Bearer {secrets.TOKEN_0}' } }, ...FLOW];
/** The gateway's FLOWGATE_ENCRYPTION_KEY: the bench seals the secrets with it, as the control plane would. */
const ENCRYPTION_KEY = process.env.FLOWGATE_ENCRYPTION_KEY ?? randomBytes(32).toString('hex');
/**
 * The bench key's `ratelimit_min`: above what the run can reach (warm-up + measurement at up to
 * ~50k req/s stays below 1M in any minute), so no request is refused, as the bench requires
 * 2xx only. The limit does not make the window larger: the exact sliding-window log holds every
 * request accepted in the last 60 s whatever the limit (only a limit below the traffic would cap
 * it, by refusing). So the keyed figure includes a window of ~the whole run's requests.
 */
const KEY_LIMIT_PER_MIN = 1_000_000;

interface Target {
  name: 'raw' | (typeof OPTIONAL_TARGETS)[number];
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
/** A target and its ratio to the raw run measured just before it. */
type Compared = Measured & { rawRps: number; ratio: number };

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
  await ensureServices({ redis: true, kafka: true, quiet: true });
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(redisUrl);
  const publisher = new TestPublisher(redis);
  const services: AppProcess[] = [];
  let nodeRedCleanup = (): void => undefined;
  let benchCluster: BenchCluster | null = null;
  try {
    const project = publisher.newProject([
      publishedRoute({ path: '/shout', query_params: QUERY, blocks: FLOW }),
      publishedRoute({ path: '/shout-keyed', auth: 'user', query_params: QUERY, blocks: FLOW }),
    ], { subdomain: `bench-${randomBytes(4).toString('hex')}` });
    await publisher.publish(project);
    const key = await publisher.createKey(project.id, { permission: 'user', ratelimit_min: KEY_LIMIT_PER_MIN });
    const host = `${project.subdomain}.localhost`;
    const box = new SecretBox(ENCRYPTION_KEY);
    const secretsProject = publisher.newProject(
      [publishedRoute({ path: '/shout', query_params: QUERY, blocks: FLOW }), publishedRoute({ path: '/shout-secret', query_params: QUERY, blocks: SECRET_FLOW })],
      {
        subdomain: `bench-secrets-${randomBytes(4).toString('hex')}`,
        secrets: Array.from({ length: 10 }, (_, i) => ({ name: `TOKEN_${i}`, value_encrypted: box.encrypt(`bench-secret-${i}-${randomBytes(8).toString('hex')}`), preview_value_encrypted: null })),
      },
    );
    await publisher.publish(secretsProject);
    await redis.set(freshnessKey(secretsProject.id), String(secretsProject.revision));
    const secretsHost = `${secretsProject.subdomain}.localhost`;

    const [rawPort, gatewayPort, nodeRedPort, clusterGatewayPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    if (!FROM_SOURCE) buildBackend();
    const rawProcess = startProcess('raw', ['bench/gateway/raw-server.js', String(rawPort)], process.env, ROOT);
    const gatewayEnv = (port: number, env: Record<string, string> = {}) => ({
      ...process.env,
      NODE_ENV: 'production',
      GATEWAY_PORT: String(port),
      GATEWAY_HOST: '127.0.0.1',
      REDIS_URL: redisUrl,
      KAFKA_LOG_TOPIC: process.env.BENCH_KAFKA_LOG_TOPIC ?? 'flowgate.bench.request-logs',
      LOG_LEVEL: 'warn',
      FLOWGATE_SERVICE_TOKEN: process.env.FLOWGATE_SERVICE_TOKEN ?? randomBytes(24).toString('hex'),
      FLOWGATE_ENCRYPTION_KEY: ENCRYPTION_KEY,
      ...env,
    });
    const gatewayArgs = [...GATEWAY_NODE_FLAGS, ...entryArgs('apps/gateway/src/main.ts')];
    const gateway = startProcess('gateway', gatewayArgs, gatewayEnv(gatewayPort), ROOT);
    benchCluster = TARGETS.has('public_cluster') || TARGETS.has('keyed_cluster') ? await startBenchCluster(project, KEY_LIMIT_PER_MIN) : null;
    const clusterGateway = benchCluster && startProcess('gateway-cluster', gatewayArgs, gatewayEnv(clusterGatewayPort, benchCluster.env), ROOT);
    if (clusterGateway) services.push(clusterGateway);
    const nodeRed = TARGETS.has('node_red') ? startNodeRed(ROOT, nodeRedPort) : null;
    services.push(rawProcess, gateway);
    if (nodeRed) {
      nodeRedCleanup = nodeRed.cleanup;
      services.push(nodeRed);
    }
    await Promise.all([
      waitReady(rawProcess, `http://127.0.0.1:${rawPort}/`),
      waitReady(gateway, `http://127.0.0.1:${gatewayPort}/api/shout?name=bench`, 60_000, { host }),
      nodeRed && waitReady(nodeRed, `http://127.0.0.1:${nodeRedPort}/shout?name=bench`),
      clusterGateway && waitReady(clusterGateway, `http://127.0.0.1:${clusterGatewayPort}/api/shout?name=bench`, 60_000, { host }),
    ]);

    process.stdout.write(
      `gateway benchmark: ${CONNECTIONS} connections, ${SECONDS} s per target (after ${WARMUP_SECONDS} s warm-up), ` +
        `${FROM_SOURCE ? 'TypeScript source via the SWC hook' : 'compiled JavaScript'}, gateway node flags: ${GATEWAY_NODE_FLAGS.join(' ') || 'none'}\n`,
    );
    const accounting: Accounting = { redisPid: Number((/process_id:(\d+)/.exec(await redis.info('server')) ?? [])[1]) || null, kafkaPid: kafkaBrokerPid() };
    process.stdout.write(`bench key: ratelimit_min ${KEY_LIMIT_PER_MIN} (not reachable in this run; the window log holds every request of the last 60 s)\n`);
    // Each target is measured right after a raw run of its own and compared with that one: this
    // machine's speed drifts by a third over minutes, and a baseline taken minutes earlier would
    // carry the drift into the ratio (either way).
    const rawTarget: Target = { name: 'raw', port: rawPort, path: '/shout?name=bench', headers: {}, pid: rawProcess.child.pid! };
    const baselines: Measured[] = [];
    const measureAgainstRaw = async (name: Target['name'], target: Omit<Target, 'name'>): Promise<Compared | null> => {
      if (!TARGETS.has(name)) return null;
      const raw = await measure(rawTarget, accounting);
      baselines.push(raw);
      const result = await measure({ name, ...target }, accounting);
      return { ...result, rawRps: raw.requestsPerSecond, ratio: Math.round((result.requestsPerSecond / raw.requestsPerSecond) * 100) / 100 };
    };
    const results = {
      public: await measureAgainstRaw('public', { port: gatewayPort, path: '/api/shout?name=bench', headers: { host }, pid: gateway.child.pid! }),
      keyed: await measureAgainstRaw('keyed', {
        port: gatewayPort,
        path: '/api/shout-keyed?name=bench',
        headers: { host, authorization: `Bearer ${key.key}` },
        pid: gateway.child.pid!,
      }),
      secrets_idle: await measureAgainstRaw('secrets_idle', { port: gatewayPort, path: '/api/shout?name=bench', headers: { host: secretsHost }, pid: gateway.child.pid! }),
      secrets_read: await measureAgainstRaw('secrets_read', { port: gatewayPort, path: '/api/shout-secret?name=bench', headers: { host: secretsHost }, pid: gateway.child.pid! }),
      node_red: nodeRed ? await measureAgainstRaw('node_red', { port: nodeRedPort, path: '/shout?name=bench', headers: {}, pid: nodeRed.child.pid! }) : null,
      public_cluster: clusterGateway
        ? await measureAgainstRaw('public_cluster', { port: clusterGatewayPort, path: '/api/shout?name=bench', headers: { host }, pid: clusterGateway.child.pid! })
        : null,
      keyed_cluster:
        clusterGateway && benchCluster
          ? await measureAgainstRaw('keyed_cluster', {
              port: clusterGatewayPort,
              path: '/api/shout-keyed?name=bench',
              headers: { host, authorization: `Bearer ${benchCluster.key.key}` },
              pid: clusterGateway.child.pid!,
            })
          : null,
    };
    if (baselines.length === 0) baselines.push(await measure(rawTarget, accounting));
    const raw = baselines[0]!;

    const gatewayRssMb = Math.max(results.public?.peakRssMb ?? 0, results.keyed?.peakRssMb ?? 0);
    const targetSummary = (result: Compared | null) =>
      result && {
        rps: result.requestsPerSecond,
        p50_ms: result.p50Ms,
        p99_ms: result.p99Ms,
        ratio: result.ratio,
        raw_rps: result.rawRps,
        cpu_us_per_request: result.cpuUsPerRequest,
      };
    const measuredGateway = [results.public, results.keyed].filter((result): result is Compared => result !== null);
    const summary = {
      bench: 'gateway',
      connections: CONNECTIONS,
      seconds: SECONDS,
      runtime: FROM_SOURCE ? 'ts-source' : 'compiled-js',
      gateway_node_flags: GATEWAY_NODE_FLAGS.join(' '),
      raw: {
        rps: raw.requestsPerSecond,
        p50_ms: raw.p50Ms,
        p99_ms: raw.p99Ms,
        cpu_us_per_request: raw.cpuUsPerRequest.server,
        runs_rps: baselines.map((baseline) => baseline.requestsPerSecond),
      },
      public: targetSummary(results.public),
      keyed: targetSummary(results.keyed),
      key_ratelimit_min: KEY_LIMIT_PER_MIN,
      secrets_idle: targetSummary(results.secrets_idle),
      secrets_read: targetSummary(results.secrets_read),
      node_red: targetSummary(results.node_red),
      public_cluster: targetSummary(results.public_cluster),
      keyed_cluster: targetSummary(results.keyed_cluster),
      gateway_rss_mb: gatewayRssMb,
      targets: {
        public_ratio_ge_0_50: results.public ? results.public.ratio >= 0.5 : null,
        keyed_ratio_ge_0_35: results.keyed ? results.keyed.ratio >= 0.35 : null,
        p99_lt_10_ms: measuredGateway.length > 0 ? measuredGateway.every((result) => result.p99Ms < 10) : null,
        rss_lt_150_mb: measuredGateway.length > 0 ? gatewayRssMb < 150 : null,
      },
    };
    const ratios = [
      summary.public && `public ${summary.public.ratio}×`,
      summary.keyed && `keyed ${summary.keyed.ratio}×`,
      summary.secrets_idle && `ten secrets, none read ${summary.secrets_idle.ratio}×`,
      summary.secrets_read && `ten secrets, one read ${summary.secrets_read.ratio}×`,
      summary.node_red && `node-red ${summary.node_red.ratio}×`,
      summary.public_cluster && `public on Redis Cluster ${summary.public_cluster.ratio}×`,
      summary.keyed_cluster && `keyed on Redis Cluster ${summary.keyed_cluster.ratio}×`,
    ].filter(Boolean);
    const versusNodeRed =
      results.public && results.node_red ? `; gateway ${Math.round((results.public.requestsPerSecond / results.node_red.requestsPerSecond) * 10) / 10}× node-red` : '';
    process.stdout.write(`ratios vs the raw run before each: ${ratios.join(', ')}${versusNodeRed}; gateway peak RSS ${gatewayRssMb} MB\n`);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    nodeRedCleanup();
    await benchCluster?.stop();
    await publisher.cleanup();
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
