/**
 * The whole stack on one machine (`npm run bench -- stack`): what a request costs every
 * process of a self-hosted Flowgate, the log pipeline included.
 *
 * The stack runs as `npm run up` starts it (on the default ports; started here when it does
 * not run yet, and stopped again at the end; a stack that already ran is used and left
 * running). The project is made through the control plane's API: GET /shout (public) and GET
 * /shout-keyed (user key) with the flow of the gateway bench (set_variable → manipulate_text
 * uppercase → respond), deployed, and a user key (bench/stack/project.ts).
 *
 * In one run, autocannon (50 connections, 10 s after a 3 s warm-up), each target right after a
 * raw node:http run of its own (bench/gateway/raw-server.js), which its ratio is to:
 *   public   — the gateway of the stack on /shout;
 *   keyed    — the same flow behind the user key;
 *   node_red — Node-RED 4 on the same flow (bench/gateway/node-red.ts), beside the idle stack.
 * For public and keyed, the CPU of every process of the stack is read from /proc before the
 * load and again once the log pipeline has drained (every request of the run stored in
 * request_logs, counted by log-ingest and checked in SQL: each request's row exactly once),
 * and divided by the requests answered:
 *   gateway, log-ingest, worker, control plane, dashboard (Vite) — each process, all threads;
 *   Kafka broker — the JVM; Redis — redis-server (pid from INFO);
 *   PostgreSQL — the whole server: the postmaster, its live children and, from the
 *     postmaster's cutime/cstime, the backends that exited meanwhile (bench/stack/cpu.ts);
 *   PostgreSQL (stack db) — only the backends connected to the stack's database, sampled
 *     every 500 ms (the shared server also serves other work on a busy machine).
 * The warm-up's log rows are drained before the measurement starts. An idle window (nothing
 * sent) is measured first, to show what the machine's other work adds to each figure.
 * Goals: public ≥ 0.50×, keyed ≥ 0.35× of raw; gateway ≥ 5× Node-RED; p99 < 10 ms;
 * log-ingest ≤ 6 µs, PostgreSQL ≤ 6 µs, Kafka ≤ 3 µs of CPU per logged request.
 * Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_TARGETS (public, keyed, node_red;
 * default all), BENCH_KEEP_STACK=1 (leave a stack started here running), BENCH_RATE (req/s:
 * the gateway targets run at this fixed rate instead of as fast as they are answered, and no
 * raw or Node-RED run is made — CPU per request depends on the rate, since batches fill
 * differently, so two versions of the pipeline are compared at the same rate).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { processCpuSeconds, parentPid, postgresServerCpuSeconds, sampleDatabaseBackends, threadCpuSeconds } from './stack/cpu';
import { drain, rowsInserted } from './stack/log-ingest-rows';
import { createBenchProject, type BenchProject } from './stack/project';
import { load, type LoadResult } from './gateway/load';
import { startNodeRed } from './gateway/node-red';
import { type AppProcess, freePort, startProcess, waitReady } from '@flowgate/testing';
import { get, kafkaBrokerPid } from './gateway/processes';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = 3;
const IDLE_SECONDS = 5;
const EXPECTED = JSON.stringify({ result: 'HELLO BENCH' });
const KEY_LIMIT_PER_MIN = 1_000_000;
const RATE = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined;
const OPTIONAL_TARGETS = ['public', 'keyed', 'node_red'] as const;
const TARGETS = new Set(process.env.BENCH_TARGETS ? process.env.BENCH_TARGETS.split(',').map((name) => name.trim()) : OPTIONAL_TARGETS);
for (const name of TARGETS) {
  if (!(OPTIONAL_TARGETS as readonly string[]).includes(name)) throw new Error(`BENCH_TARGETS: unknown target ${name} (known: ${OPTIONAL_TARGETS.join(', ')})`);
}
const STACK_APPS = ['gateway', 'log-ingest', 'worker', 'control-plane', 'dashboard'] as const;
/** The processes whose CPU is reported, in print order. */
const PROCESSES = [...STACK_APPS, 'kafka', 'redis', 'postgres', 'postgres_stack_db'] as const;
type ProcessName = (typeof PROCESSES)[number];
type Cpu = Record<ProcessName, number>;

const { recordedPid, childPid } = require(path.join(ROOT, 'scripts/lib/processes')) as {
  /** The service's supervisor (scripts/lib/supervisor.js), which restarts it after a crash. */
  recordedPid(name: string): number | null;
  /** The service process itself: the one whose CPU counts. */
  childPid(name: string): number | null;
};
const { stackEnv } = require(path.join(ROOT, 'scripts/lib/env')) as { stackEnv(): Record<string, string> };
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function stackCommand(command: 'up' | 'down'): void {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/stack.js'), command], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`npm run ${command} failed (${result.signal ?? `exit ${result.status}`})`);
}

/** Pids of the stack's processes and of the services it uses. */
interface Pids {
  apps: Record<(typeof STACK_APPS)[number], number>;
  kafka: number | null;
  redis: number | null;
  postmaster: number | null;
}

function cpuNow(pids: Pids): Omit<Cpu, 'postgres_stack_db'> {
  const cpu = Object.fromEntries(STACK_APPS.map((name) => [name, processCpuSeconds(pids.apps[name])])) as Record<(typeof STACK_APPS)[number], number>;
  return {
    ...cpu,
    kafka: pids.kafka === null ? NaN : processCpuSeconds(pids.kafka),
    redis: pids.redis === null ? NaN : processCpuSeconds(pids.redis),
    postgres: pids.postmaster === null ? NaN : postgresServerCpuSeconds(pids.postmaster),
  };
}

/** CPU seconds of each process over `during()`, and what it returned. */
async function measureCpu<T>(pids: Pids, pool: Pool, during: () => Promise<T>): Promise<{ cpu: Cpu; threads: Record<string, number>; seconds: number; result: T }> {
  const stopBackends = sampleDatabaseBackends(pool);
  const threadsBefore = threadCpuSeconds(pids.apps.gateway);
  const before = cpuNow(pids);
  const started = performance.now();
  const result = await during();
  const after = cpuNow(pids);
  const seconds = (performance.now() - started) / 1000;
  const threadsAfter = threadCpuSeconds(pids.apps.gateway);
  const stackDb = await stopBackends();
  const cpu = { postgres_stack_db: stackDb } as Cpu;
  for (const name of Object.keys(before) as Array<keyof typeof before>) cpu[name] = after[name] - before[name];
  // The gateway's main (HTTP) thread apart from the others (the request-log worker thread, libuv, V8 helpers).
  const threads: Record<string, number> = {};
  for (const [tid, { seconds }] of threadsAfter) {
    const name = tid === pids.apps.gateway ? 'main' : 'other_threads';
    threads[name] = (threads[name] ?? 0) + seconds - (threadsBefore.get(tid)?.seconds ?? 0);
  }
  return { cpu, threads, seconds, result };
}

/**
 * The project's rows once they stop growing (two counts 1 s apart agree): the requests still in
 * flight when a load stopped are answered and logged too, but not counted in its total, and
 * log-ingest may hold them up to LOG_INGEST_MAX_WAIT_MS for a fuller fetch.
 */
async function settledRows(pool: Pool, projectId: string): Promise<{ rows: number; distinct: number }> {
  let last = await projectRows(pool, projectId);
  for (;;) {
    await sleep(1000);
    const now = await projectRows(pool, projectId);
    if (now.rows === last.rows) return now;
    last = now;
  }
}

async function projectRows(pool: Pool, projectId: string): Promise<{ rows: number; distinct: number }> {
  const { rows } = await pool.query<{ rows: string; distinct: string }>(
    'SELECT count(*) AS rows, count(DISTINCT id) AS distinct FROM request_logs WHERE project_id = $1',
    [projectId],
  );
  return { rows: Number(rows[0].rows), distinct: Number(rows[0].distinct) };
}

/** Waits until the stack's gateway serves the freshly deployed project (it learns of it from Redis). */
async function servedByGateway(port: number, host: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await get(port, '/api/shout?name=bench', { host }).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline) throw new Error(`the stack's gateway does not serve ${host}/api/shout 30 s after the deploy`);
    await sleep(200);
  }
}

interface Target {
  name: 'raw' | (typeof OPTIONAL_TARGETS)[number];
  port: number;
  path: string;
  headers: Record<string, string>;
}

async function probe(target: Target): Promise<void> {
  const answer = await get(target.port, target.path, target.headers);
  if (answer.status !== 200 || JSON.stringify(JSON.parse(answer.body)) !== EXPECTED) {
    throw new Error(`${target.name} answered ${answer.status} ${answer.body}, expected ${EXPECTED}`);
  }
}

async function run(target: Target, seconds = SECONDS, rate?: number): Promise<LoadResult> {
  const result = await load(`http://127.0.0.1:${target.port}${target.path}`, { connections: CONNECTIONS, seconds, headers: target.headers, rate });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result;
}

const describeLoad = (name: string, result: LoadResult) =>
  `${name.padEnd(9)} ${String(result.requestsPerSecond).padStart(7)} req/s   p50 ${result.p50Ms} ms   p99 ${result.p99Ms} ms`;

async function measureRaw(raw: Target): Promise<LoadResult> {
  await probe(raw);
  await run(raw, WARMUP_SECONDS);
  const result = await run(raw);
  process.stdout.write(`${describeLoad('raw', result)}\n`);
  return result;
}

interface StackResult extends LoadResult {
  rawRps: number;
  ratio: number;
  drainSeconds: number;
  /** µs of CPU per answered request, per process. */
  cpuUs: Record<ProcessName, number>;
  /** The same less what each process used while idle (its idle rate × the measured window). */
  cpuUsNetOfIdle: Record<ProcessName, number>;
  gatewayThreadsUs: Record<string, number>;
}

/** A gateway target: warm-up (drained), then the measured run through the drain of its log rows. */
async function measureStack(
  target: Target,
  raw: Target,
  context: { pids: Pids; pool: Pool; project: BenchProject; logIngestPort: string; idleCores: Record<ProcessName, number> },
): Promise<StackResult> {
  const { pids, pool, project, logIngestPort, idleCores } = context;
  const rawResult = RATE === undefined ? await measureRaw(raw) : null;
  await probe(target);
  const warmFrom = await rowsInserted(logIngestPort);
  const warm = await run(target, WARMUP_SECONDS, RATE);
  await drain(logIngestPort, warmFrom, warm.total);
  const rowsBefore = await settledRows(pool, project.id);
  const from = await rowsInserted(logIngestPort);
  let drainSeconds = 0;
  const { cpu, threads, seconds, result } = await measureCpu(pids, pool, async () => {
    const loaded = await run(target, SECONDS, RATE);
    drainSeconds = await drain(logIngestPort, from, loaded.total);
    return loaded;
  });
  const rowsAfter = await projectRows(pool, project.id);
  const logged = rowsAfter.rows - rowsBefore.rows;
  // Requests still in flight when autocannon stopped are answered (and logged) too: ≤ one per connection.
  if (logged < result.total || logged > result.total + CONNECTIONS) throw new Error(`${target.name}: ${logged} log rows for ${result.total} answered requests`);
  if (rowsAfter.distinct !== rowsAfter.rows) throw new Error(`${target.name}: ${rowsAfter.rows - rowsAfter.distinct} request ids stored twice`);
  const perRequest = (seconds: number) => round((seconds * 1e6) / result.total);
  const cpuUs = Object.fromEntries(PROCESSES.map((name) => [name, perRequest(cpu[name])])) as Record<ProcessName, number>;
  const cpuUsNetOfIdle = Object.fromEntries(PROCESSES.map((name) => [name, perRequest(Math.max(0, cpu[name] - idleCores[name] * seconds))])) as Record<ProcessName, number>;
  const gatewayThreadsUs = Object.fromEntries(
    Object.entries(threads)
      .map(([name, seconds]) => [name, perRequest(seconds)] as const)
      .filter(([, us]) => us >= 0.1)
      .sort((a, b) => b[1] - a[1]),
  );
  const ratio = rawResult === null ? NaN : round(result.requestsPerSecond / rawResult.requestsPerSecond, 2);
  process.stdout.write(
    `${describeLoad(target.name, result)}   ${rawResult === null ? `fixed rate ${RATE}/s` : `${ratio}× raw`}; log pipeline drained ${drainSeconds.toFixed(1)} s after the load (${logged} rows, each once)\n` +
      `          CPU µs/request: ${PROCESSES.map((name) => `${name} ${cpuUs[name]}`).join(', ')}\n` +
      `          net of idle:    ${PROCESSES.map((name) => `${name} ${cpuUsNetOfIdle[name]}`).join(', ')}\n` +
      `          gateway threads µs/request: ${Object.entries(gatewayThreadsUs).map(([name, us]) => `${name} ${us}`).join(', ')}\n`,
  );
  return { ...result, rawRps: rawResult?.requestsPerSecond ?? NaN, ratio, drainSeconds, cpuUs, cpuUsNetOfIdle, gatewayThreadsUs };
}

async function main(): Promise<void> {
  const env = stackEnv();
  const alreadyUp = STACK_APPS.every((name) => recordedPid(name) !== null);
  if (!alreadyUp) {
    process.stdout.write('starting the stack (npm run up)…\n');
    stackCommand('up');
  }
  const stopStack = !alreadyUp && process.env.BENCH_KEEP_STACK !== '1';
  const redis = new Redis(env.REDIS_URL);
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 2, application_name: 'flowgate-stack-bench' });
  const services: AppProcess[] = [];
  let nodeRedCleanup = (): void => undefined;
  let project: BenchProject | null = null;
  try {
    const apps = Object.fromEntries(
      STACK_APPS.map((name) => {
        const pid = childPid(name);
        if (pid === null) throw new Error(`${name} of the stack does not run`);
        return [name, pid];
      }),
    ) as Pids['apps'];
    const backend = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const pids: Pids = {
      apps,
      kafka: kafkaBrokerPid(Number(env.KAFKA_BROKERS.split(',')[0]!.split(':').pop())),
      redis: Number((/process_id:(\d+)/.exec(await redis.info('server')) ?? [])[1]) || null,
      postmaster: parentPid(backend),
    };
    project = await createBenchProject(env.CONTROL_PLANE_URL, redis, pool, KEY_LIMIT_PER_MIN);
    const host = `${project.subdomain}.${env.GATEWAY_DOMAIN}`;
    const gatewayPort = Number(env.GATEWAY_PORT);

    const [rawPort, nodeRedPort] = await Promise.all([freePort(), freePort()]);
    const rawProcess = startProcess('raw', ['bench/gateway/raw-server.js', String(rawPort)], process.env, ROOT);
    services.push(rawProcess);
    const nodeRed = TARGETS.has('node_red') && RATE === undefined ? startNodeRed(ROOT, nodeRedPort) : null;
    if (nodeRed) {
      services.push(nodeRed);
      nodeRedCleanup = nodeRed.cleanup;
    }
    await Promise.all([
      waitReady(rawProcess, `http://127.0.0.1:${rawPort}/`),
      servedByGateway(gatewayPort, host),
      nodeRed && waitReady(nodeRed, `http://127.0.0.1:${nodeRedPort}/shout?name=bench`),
    ]);

    process.stdout.write(
      `stack benchmark: ${CONNECTIONS} connections, ${SECONDS} s per target (after ${WARMUP_SECONDS} s warm-up); stack pids ${JSON.stringify(pids)}\n`,
    );
    const idle = await measureCpu(pids, pool, () => sleep(IDLE_SECONDS * 1000));
    const idleCores = Object.fromEntries(PROCESSES.map((name) => [name, round(idle.cpu[name] / IDLE_SECONDS, 3)])) as Record<ProcessName, number>;
    process.stdout.write(`idle (nothing sent, ${IDLE_SECONDS} s), cores used: ${PROCESSES.map((name) => `${name} ${idleCores[name]}`).join(', ')}\n`);

    const raw: Target = { name: 'raw', port: rawPort, path: '/shout?name=bench', headers: {} };
    const context = { pids, pool, project, logIngestPort: env.LOG_INGEST_PORT, idleCores };
    const results = {
      public: TARGETS.has('public')
        ? await measureStack({ name: 'public', port: gatewayPort, path: '/api/shout?name=bench', headers: { host } }, raw, context)
        : null,
      keyed: TARGETS.has('keyed')
        ? await measureStack(
            { name: 'keyed', port: gatewayPort, path: '/api/shout-keyed?name=bench', headers: { host, authorization: `Bearer ${project.key}` } },
            raw,
            context,
          )
        : null,
      node_red: nodeRed
        ? await (async () => {
            const rawResult = await measureRaw(raw);
            const target: Target = { name: 'node_red', port: nodeRedPort, path: '/shout?name=bench', headers: {} };
            await probe(target);
            await run(target, WARMUP_SECONDS);
            const result = await run(target);
            const ratio = round(result.requestsPerSecond / rawResult.requestsPerSecond, 2);
            process.stdout.write(`${describeLoad('node-red', result)}   ${ratio}× raw\n`);
            return { ...result, rawRps: rawResult.requestsPerSecond, ratio };
          })()
        : null,
    };

    // PostgreSQL as the stack's own backends: the whole server's figure also holds whatever else
    // uses it (other databases); on a machine of its own the two agree.
    const pipeline = (result: StackResult | null) => result && round(result.cpuUs['log-ingest'] + result.cpuUs.postgres_stack_db + result.cpuUs.kafka);
    const versusNodeRed = (result: StackResult | null) => (result && results.node_red ? round(result.ratio / results.node_red.ratio, 1) : null);
    const targetSummary = (result: StackResult | null) =>
      result && {
        rps: result.requestsPerSecond,
        p50_ms: result.p50Ms,
        p99_ms: result.p99Ms,
        ratio: result.ratio,
        raw_rps: result.rawRps,
        x_node_red: versusNodeRed(result),
        drain_s: round(result.drainSeconds),
        cpu_us_per_request: result.cpuUs,
        cpu_us_per_request_net_of_idle: result.cpuUsNetOfIdle,
        gateway_threads_us: result.gatewayThreadsUs,
        log_pipeline_us: pipeline(result),
      };
    const measured = [results.public, results.keyed].filter((result): result is StackResult => result !== null);
    const summary = {
      bench: 'stack',
      connections: CONNECTIONS,
      seconds: SECONDS,
      rate: RATE ?? null,
      idle_cores: idleCores,
      public: targetSummary(results.public),
      keyed: targetSummary(results.keyed),
      node_red: results.node_red && { rps: results.node_red.requestsPerSecond, p99_ms: results.node_red.p99Ms, ratio: results.node_red.ratio, raw_rps: results.node_red.rawRps },
      targets: {
        public_ratio_ge_0_50: results.public ? results.public.ratio >= 0.5 : null,
        keyed_ratio_ge_0_35: results.keyed ? results.keyed.ratio >= 0.35 : null,
        x_node_red_ge_5: results.public && results.node_red ? versusNodeRed(results.public)! >= 5 : null,
        p99_lt_10_ms: measured.length > 0 ? measured.every((result) => result.p99Ms < 10) : null,
        log_ingest_le_6_us: measured.length > 0 ? measured.every((result) => result.cpuUs['log-ingest'] <= 6) : null,
        postgres_le_6_us: measured.length > 0 ? measured.every((result) => result.cpuUs.postgres_stack_db <= 6) : null,
        kafka_le_3_us: measured.length > 0 ? measured.every((result) => result.cpuUs.kafka <= 3) : null,
      },
    };
    process.stdout.write(
      `ratios vs the raw run before each: ${[
        results.public && `public ${results.public.ratio}×`,
        results.keyed && `keyed ${results.keyed.ratio}×`,
        results.node_red && `node-red ${results.node_red.ratio}×`,
      ]
        .filter(Boolean)
        .join(', ')}${results.public && results.node_red ? `; public = ${versusNodeRed(results.public)}× node-red` : ''}\n`,
    );
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    nodeRedCleanup();
    await project?.remove().catch((error: unknown) => process.stderr.write(`stack bench: could not remove its project: ${String(error)}\n`));
    redis.disconnect();
    await pool.end();
    if (stopStack) stackCommand('down');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`stack bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
