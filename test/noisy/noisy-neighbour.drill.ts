/**
 * The noisy-neighbour drill (`npm run test:noisy`). One gateway process (the
 * production build in dist/, with the deployment's Node flags), two projects. Two probes on
 * the quiet project's simple flow — autocannon (10 connections: throughput) and one request at
 * a time (what a single client waits: sequential-probe.ts) — are measured on the quiet gateway,
 * then again while the noisy project (its own process, noise.ts) runs every abuse there is:
 * the value-doubling flow (422) and bodies over the limit (413) as a flood of cheap failures,
 * the largest allowed pattern on the largest allowed text, a pattern small to write and huge to
 * run (refused), one just under the program cap (worker pool), a pattern holding a worker
 * thread, values adding up past the run's memory budget, maximum-size JSON bodies, image
 * filters at the pixel cap, a flow that uses up its CPU budget, the most expensive loop a
 * project can deploy (loop-lane.ts), and fetches of a 4 MB OpenAPI
 * document. Then a control plane of the same build: one account's Workshop test runs of the
 * abusive flows, 12 at once, while another account's `GET /v1/projects` is probed one request
 * at a time (test-run-abuse.ts). Then the data pool: the noisy project's slow `query_rows` (20
 * `contains` on 300,000 rows, 16 at once) while the quiet project's 1-row query is probed one
 * request at a time (data-pool-abuse.ts).
 *
 * The abuses are run one at a time (each its own noise process), as the goals read "under each
 * abuse", then all of them at once (NOISY_TOGETHER=0 skips that pass; it is printed, not a
 * goal). Under each, the 10-connection probe's quiet and noisy phases alternate (NOISY_ROUNDS
 * noisy phases, the noise paused between them; the quiet phase after one abuse is the one before
 * the next) and each noisy phase is compared with the quiet phases on either side of it, for
 * this machine's speed drifts by a third over minutes; the sequential probe runs last, under it.
 *
 * Prints, for each abuse, the probes' p50/p99 and the throughput against the quiet phases, the loop's longest stall, the heap's
 * high-water marks (gateway and control plane), how many processes crashed, and every abusive
 * answer by status and code. Goals: sequential probe p50 < 2 ms and p99 < 25 ms (on a quiet
 * machine) and 10-connection probe throughput ≥ 50 % of quiet and p99 < 25 ms, under each abuse; no 500 internal_error, no answer
 * without a JSON error body, no process crashed, the gateway ready afterwards, the 1-row query's
 * p99 < 200 ms while the data pool is flooded. Exit code 1 when a goal is missed. Env:
 * NOISY_SECONDS (10: the noisy phases' time in all, per abuse; the sequential probe runs a phase's), NOISY_ROUNDS (3), PROBE_CONNECTIONS (10),
 * NOISY_FLOWS (comma list of lane names, default all), NOISY_TEST_RUNS (1; 0 skips the
 * control-plane part), NOISY_DATA (1; 0 skips the data pool), GATEWAY_NODE_FLAGS, REDIS_URL,
 * KAFKA_BROKERS.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import { type AppProcess, type Block, DEPLOYMENT_NODE_FLAGS, freePort, publishedRoute, respond, startProcess, TestPublisher, waitReady } from '@flowgate/testing';
import { load, type LoadResult } from '../../bench/gateway/load';
import { CODE_LANES, CODE_ROUTES } from './code-lanes';
import { get } from '../../bench/gateway/processes';
import { ensureServices } from '../../scripts/lib/services';
import type { NoiseCommand, NoiseConfig, NoiseLane, NoiseMessage } from './noise';
import { LOOP_ROUTE, loopLane } from './loop-lane';
import { heapHighWater, sequentialProbe, type SequentialResult } from './sequential-probe';
import { type DataPoolDrill, prepareDataPoolDrill } from './data-pool-abuse';
import { testRunAbuse } from './test-run-abuse';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(__dirname, '../..');
const { stackEnv } = require(path.join(ROOT, 'scripts/lib/env')) as { stackEnv(): Record<string, string> };
/** `npm run build`'s backend part (scripts/build.js): the gateway runs from dist/ as deployed. */
const { buildBackend } = require(path.join(ROOT, 'scripts/build')) as { buildBackend(outDir?: string): number };
const SECONDS = Number(process.env.NOISY_SECONDS ?? 10);
const PROBE_CONNECTIONS = Number(process.env.PROBE_CONNECTIONS ?? 10);
const WARMUP_SECONDS = 3;
/** Noisy phases of the 10-connection probe, each between two quiet ones. */
const ROUNDS = Math.max(1, Number(process.env.NOISY_ROUNDS ?? 3));
/** After the noise paused (its requests in flight answered), before a quiet phase: the gateway's leftovers. */
const SETTLE_MS = 500;
/** After the noise resumed, before a noisy phase: the shares see it again. */
const RESUME_WARMUP_MS = 1000;
/** After a noise process started, before its first noisy phase: its connections open and the shares see it. */
const NOISE_WARMUP_MS = WARMUP_SECONDS * 1000;
const GATEWAY_NODE_FLAGS = process.env.GATEWAY_NODE_FLAGS?.split(' ').filter(Boolean) ?? DEPLOYMENT_NODE_FLAGS;
/** The gateway's defaults, which the drill runs against. */
const BODY_LIMIT = 1024 * 1024;
const REGEX_PATTERN_LIMIT = 4096;
const IMAGE_SIDE = 5000; // 25 MP: FLOWGATE_IMAGE_MAX_PIXELS
/** NOISY_DATA=0 skips the data-pool part (data-pool-abuse.ts). */
const DATA_DRILL = process.env.NOISY_DATA !== '0';

const setVariable = (value: string): Block => ({ type: 'set_variable', config: { name: 'v', value } });
const changeCase = (index: number): Block => ({ type: 'manipulate_text', config: { input: '{local.v}', operation: index % 2 === 0 ? 'uppercase' : 'lowercase', ref: 'v' } });

const NOISY_ROUTES = [
  // Value doubling: 24 doublings and 80 case changes of the body's text.
  publishedRoute({
    path: '/double',
    method: 'POST',
    blocks: [setVariable('{body.s}'), ...Array.from({ length: 24 }, () => setVariable('{local.v}{local.v}')), ...Array.from({ length: 80 }, (_, i) => changeCase(i)), respond({ v: '{local.v}' })],
  }),
  publishedRoute({ path: '/regex', method: 'POST', blocks: [{ type: 'match_regex', config: { input: '{body.t}', pattern: '{body.p}', flags: 'i', ref: 'm' } }, respond({ m: '{result.m}' })] }),
  // A maximum-size body read as text, changed, and sent back.
  publishedRoute({ path: '/json', method: 'POST', blocks: [setVariable('{body}'), changeCase(0), respond({ echo: '{local.v}' })] }),
  publishedRoute({ path: '/image', method: 'POST', blocks: [{ type: 'manipulate_image', config: { image_url: '{body.url}', operation: 'blur', value: 40, ref: 'out' } }, respond({ url: '{result.out}' })] }),
  // As many blocks as a flow may have, each working on the largest text: more than the CPU budget.
  publishedRoute({ path: '/cpu', method: 'POST', blocks: [setVariable('{body.s}'), ...Array.from({ length: 480 }, (_, i) => changeCase(i)), respond({ done: true })] }),
  // Keep-everything: 1 Mi characters, then 470 case changes each kept under its own name (FLOW_MAX_RUN_BYTES).
  publishedRoute({
    path: '/keep',
    method: 'POST',
    blocks: [
      setVariable('abcdefghijklmnop'),
      ...Array.from({ length: 16 }, () => setVariable('{local.v}{local.v}')),
      ...Array.from({ length: 470 }, (_, i) => ({ type: 'manipulate_text', config: { input: '{local.v}', operation: i % 2 === 0 ? 'uppercase' : 'lowercase', ref: `r${i}` } })),
      respond({ done: true }),
    ],
  }),
  // Hog: a pattern under the program cap that holds a worker thread for seconds on 60 KB.
  publishedRoute({ path: '/hog', method: 'POST', blocks: [{ type: 'match_regex', config: { input: '{body.t}', pattern: '.{0,1000}z', flags: 's', ref: 'm' } }, respond({ m: '{result.m.isMatch}' })] }),
  ...CODE_ROUTES,
  // 60 text blocks on 64 KiB, each request several slices: a turn of it costs hundreds of the quiet flow's.
  publishedRoute({ path: '/text60', method: 'POST', blocks: [setVariable('{body.s}'), ...Array.from({ length: 60 }, (_, i) => changeCase(i)), respond({ done: true })] }),
  // A path that takes no body, for the chunked flood.
  publishedRoute({ path: '/get-only', blocks: [respond({ ok: true })] }),
  LOOP_ROUTE,
];

/** A large OpenAPI document for the noisy project (its size is bounded by the project's limits). */
const bigDescription = () => ({
  openapi: '3.1.0',
  info: { title: 'Noisy', version: '1' },
  paths: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`/big${i}`, { get: { description: 'x'.repeat(500_000), responses: { 200: { description: 'ok' } } } }])),
});

/** 48 connections over the abuses; the flood of cheap failures (the first two lanes): 8 clients each. */
function lanes(): NoiseLane[] {
  const items = Array.from({ length: 30_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] }));
  let count = items.length;
  let json = JSON.stringify({ items });
  while (Buffer.byteLength(json) > BODY_LIMIT - 64) json = JSON.stringify({ items: items.slice(0, (count -= 100)) });
  const pattern = '(a?)'.repeat(REGEX_PATTERN_LIMIT / 4);
  const issueText = `${'a'.repeat(4094)}z`;
  const all: NoiseLane[] = [
    { name: 'double', path: '/double', body: JSON.stringify({ s: 'x'.repeat(16) }), connections: 8 },
    // Half declare their size (refused before reading), half do not (read up to the limit).
    { name: 'too-large', path: '/regex', body: JSON.stringify({ p: 'a', t: 'a'.repeat(1_600_000) }), connections: 4 },
    { name: 'too-large-chunked', path: '/regex', body: JSON.stringify({ p: 'a', t: 'a'.repeat(1_600_000) }), chunked: true, connections: 4 },
    { name: 'regex', path: '/regex', body: JSON.stringify({ p: pattern, t: 'a'.repeat(BODY_LIMIT - pattern.length - 64) }), connections: 4 },
    { name: 'program', path: '/regex', body: JSON.stringify({ p: '((.)|b){0,1000}z', t: issueText }), connections: 4 },
    { name: 'near-cap', path: '/regex', body: JSON.stringify({ p: '((.)|b){0,300}z', t: issueText }), connections: 4 },
    { name: 'hog', path: '/hog', body: JSON.stringify({ t: `${'a'.repeat(59_999)}z` }), connections: 4 },
    { name: 'keep', path: '/keep', body: '{}', connections: 4 },
    { name: 'json', path: '/json', body: json, connections: 4 },
    { name: 'image', path: '/image', body: JSON.stringify({ url: '{{IMAGE_URL}}' }), connections: 4 },
    { name: 'cpu', path: '/cpu', body: JSON.stringify({ s: 'Ab'.repeat((BODY_LIMIT - 64) / 2) }), connections: 2 },
    { name: 'openapi', path: '/_openapi.json', method: 'GET', body: '', connections: 2 },
    ...CODE_LANES,
    { name: 'text60', path: '/text60', body: JSON.stringify({ s: 'Ab'.repeat(32 * 1024) }), connections: 4 },
    // The body flood: 32 bodies of 2 MiB over the limit, half declared, half chunked to a path that takes none.
    { name: 'flood', path: '/regex', body: 'x'.repeat(2 * 1024 * 1024), connections: 16 },
    { name: 'flood-chunked-get', path: '/get-only', method: 'GET', body: 'x'.repeat(2 * 1024 * 1024), chunked: true, connections: 16 },
    loopLane(),
  ];
  // NOISY_FLOWS=double,too-large runs only those (to see what one kind of abuse costs); same connections each.
  const only = process.env.NOISY_FLOWS?.split(',').map((name) => name.trim());
  return only ? all.filter((lane) => only.includes(lane.name)) : all;
}

/** One phase of the 10-connection probe, and the loop's longest stall in it. */
interface Phase {
  run: LoadResult;
  stallMs: number;
}

/** Phases together: their mean throughput, their worst p50 and p99, their failures summed. */
function combined(phases: Phase[]): LoadResult {
  const runs = phases.map((measured) => measured.run);
  return {
    requestsPerSecond: Math.round(runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length),
    p50Ms: Math.max(...runs.map((run) => run.p50Ms)),
    p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
    total: runs.reduce((sum, run) => sum + run.total, 0),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

/** The noisy phases' throughput against that of the quiet phases on either side of each (quiet phase i before noisy phase i, i + 1 after). */
function ratioToNeighbours(quiet: Phase[], noisy: Phase[]): number {
  const rps = (measured: Phase): number => measured.run.requestsPerSecond;
  const noisySum = noisy.reduce((sum, measured) => sum + rps(measured), 0);
  const quietSum = noisy.reduce((sum, _measured, i) => sum + (rps(quiet[i]!) + rps(quiet[i + 1]!)) / 2, 0);
  return noisySum / Math.max(1, quietSum);
}

/** The probe under one abuse (or all at once): its phases, the sequential probe, and the noisy phases' share of the quiet ones. */
interface AbuseResult {
  name: string;
  quiet: Phase[];
  noisy: Phase[];
  sequential: SequentialResult;
  ratio: number;
}

function formatAbuse({ name, quiet, noisy, sequential, ratio }: AbuseResult): string {
  const rounds = noisy.map((measured, i) => `${quiet[i]!.run.requestsPerSecond} → ${measured.run.requestsPerSecond}`).join(' · ');
  const run = combined(noisy);
  const stall = Math.max(...noisy.map((measured) => measured.stallMs));
  return (
    `${name.padEnd(18)} ${String(Math.round(ratio * 100)).padStart(3)} % of quiet (${rounds} → ${quiet.at(-1)!.run.requestsPerSecond} req/s)   ` +
    `p99 ${run.p99Ms} ms   stall ${stall} ms   sequential p50 ${sequential.p50Ms} / p99 ${sequential.p99Ms} ms`
  );
}

const abuseFigures = ({ name, quiet, noisy, sequential, ratio }: AbuseResult) => ({
  name,
  throughput_ratio: ratio,
  noisy: { p50_ms: combined(noisy).p50Ms, p99_ms: combined(noisy).p99Ms, loop_stall_ms: Math.max(...noisy.map((measured) => measured.stallMs)) },
  rounds: noisy.map((measured, i) => ({ quiet_before: quiet[i]!.run.requestsPerSecond, noisy: measured.run.requestsPerSecond, quiet_after: quiet[i + 1]!.run.requestsPerSecond })),
  sequential,
});

const formatSequential = (run: SequentialResult): string => `p50 ${run.p50Ms} ms   p99 ${run.p99Ms} ms   (${run.requests} requests, ${run.failures} failed)`;

async function loopStallMs(port: number, host: string): Promise<number> {
  const metrics = await get(port, '/_metrics', { host });
  const match = /^flowgate_gateway_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(metrics.body);
  return match ? Math.round(Number(match[1]) * 1000) : NaN;
}

interface Noise {
  ready: Promise<void>;
  /** Resolves once every noisy connection has its answer and sends nothing more. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<Record<string, Record<string, number>>>;
}

function startNoise(config: NoiseConfig): Noise {
  const child = fork(path.join(ROOT, 'scripts/run-ts.js'), ['test/noisy/noise.ts'], { cwd: ROOT });
  child.send(config);
  const messages: NoiseMessage[] = [];
  const waiters: Array<() => void> = [];
  child.on('message', (message: NoiseMessage) => {
    messages.push(message);
    waiters.splice(0).forEach((wake) => wake());
  });
  child.once('exit', () => waiters.splice(0).forEach((wake) => wake()));
  /** The first message `want` matches, taken from those received. */
  const next = (want: (message: NoiseMessage) => boolean): Promise<NoiseMessage> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const index = messages.findIndex(want);
        if (index !== -1) resolve(messages.splice(index, 1)[0]!);
        else if (child.exitCode !== null) reject(new Error('the noise process exited early'));
        else waiters.push(check);
      };
      check();
    });
  const command = (what: NoiseCommand, answer: string): Promise<void> => {
    child.send(what);
    return next((message) => answer in message).then(() => undefined);
  };
  return {
    ready: next((message) => 'ready' in message).then(() => undefined),
    pause: () => command('pause', 'paused'),
    resume: () => command('resume', 'resumed'),
    stop: async () => {
      child.send('stop' satisfies NoiseCommand);
      const message = await next((m) => 'counts' in m);
      return 'counts' in message ? message.counts : {};
    },
  };
}

/** The gateway closes the connection after a 413 (the rest of the body is not read): the client may see that first. */
const isClear = (lane: string, outcome: string): boolean =>
  !/internal_error|not_json|no_code|^0 /.test(outcome) && (lane.startsWith('too-large') || lane.startsWith('flood') || !/^connection/.test(outcome));

async function main(): Promise<void> {
  await ensureServices({ postgres: DATA_DRILL, redis: true, kafka: true, quiet: true });
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const publisher = new TestPublisher(redis);
  const services: AppProcess[] = [];
  let data: DataPoolDrill | null = null;
  try {
    const noisy = publisher.newProject(NOISY_ROUTES, { subdomain: `noisy-${randomBytes(4).toString('hex')}` });
    const quiet = publisher.newProject([publishedRoute({ path: '/ping', query_params: [{ key: 'name', default: 'probe' }], blocks: [setVariable('hello {params.name}'), changeCase(0), respond({ result: '{local.v}' })] })], {
      subdomain: `quiet-${randomBytes(4).toString('hex')}`,
    });
    if (DATA_DRILL) {
      data = await prepareDataPoolDrill(stackEnv().DATABASE_URL!, noisy.id, quiet.id);
      noisy.routes.push(...data.noisy.routes);
      noisy.tables = data.noisy.tables;
      quiet.routes.push(...data.quiet.routes);
      quiet.tables = data.quiet.tables;
    }
    await publisher.publish(noisy);
    await publisher.describe(noisy, bigDescription(), { notify: false });
    await publisher.publish(quiet);
    const port = await freePort();
    buildBackend();
    const gateway = startProcess(
      'gateway',
      [...GATEWAY_NODE_FLAGS, path.join(ROOT, 'dist/apps/gateway/src/main.js')],
      {
        ...process.env,
        NODE_ENV: 'production',
        GATEWAY_PORT: String(port),
        GATEWAY_HOST: '127.0.0.1',
        KAFKA_LOG_TOPIC: 'flowgate.noisy.request-logs',
        LOG_LEVEL: 'warn',
        FLOWGATE_EGRESS_ALLOW_CIDRS: '127.0.0.0/8',
        FLOWGATE_IMAGE_TTL_SECONDS: '60',
        FLOWGATE_SERVICE_TOKEN: process.env.FLOWGATE_SERVICE_TOKEN ?? randomBytes(24).toString('hex'),
        FLOWGATE_ENCRYPTION_KEY: process.env.FLOWGATE_ENCRYPTION_KEY ?? randomBytes(32).toString('hex'),
        ...data?.env,
      },
      ROOT,
    );
    services.push(gateway);
    const quietHost = `${quiet.subdomain}.localhost`;
    await waitReady(gateway, `http://127.0.0.1:${port}/ping`, 60_000, { host: quietHost });
    const probeUrl = `http://127.0.0.1:${port}/ping`;
    const sequential = (seconds: number): Promise<SequentialResult> => sequentialProbe({ port, path: '/ping', headers: { host: quietHost } }, seconds);

    const noiseLanes = lanes();
    const together = noiseLanes.length > 1 && process.env.NOISY_TOGETHER !== '0';
    const noiseConnections = noiseLanes.reduce((sum, lane) => sum + lane.connections, 0);
    process.stdout.write(
      `noisy-neighbour drill: probe ${PROBE_CONNECTIONS} connections, ${SECONDS} s noisy in ${ROUNDS} rounds under each of ${noiseLanes.length} abuses alone` +
        `${together ? `, then under all of them at once (${noiseConnections} connections)` : ''}\n`,
    );
    await load(probeUrl, { connections: PROBE_CONNECTIONS, seconds: WARMUP_SECONDS, headers: { host: quietHost } });
    const quietSequential = await sequential(SECONDS);
    process.stdout.write(`quiet   sequential probe ${formatSequential(quietSequential)}\n`);

    const gatewayHeap = heapHighWater(port, '/_metrics', 'flowgate_gateway_nodejs_heap_size_used_bytes', { host: quietHost });
    const phase = async (): Promise<Phase> => {
      await loopStallMs(port, quietHost);
      const run = await load(probeUrl, { connections: PROBE_CONNECTIONS, seconds: SECONDS / ROUNDS, headers: { host: quietHost } });
      return { run, stallMs: await loopStallMs(port, quietHost) };
    };
    const counts: Record<string, Record<string, number>> = {};
    /**
     * The probe under one abuse (or several at once): noisy phases between quiet ones — the
     * noise paused between rounds, stopped after the last — then the sequential probe, still
     * under the noise. `before`: the quiet phase just measured (the previous abuse's last).
     */
    const underAbuse = async (name: string, abuse: NoiseLane[], before: Phase): Promise<AbuseResult> => {
      const noise = startNoise({ port, host: `${noisy.subdomain}.localhost`, lanes: abuse, imageWidth: IMAGE_SIDE, imageHeight: IMAGE_SIDE });
      await noise.ready;
      await sleep(NOISE_WARMUP_MS);
      const quietPhases = [before];
      const noisyPhases: Phase[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        noisyPhases.push(await phase());
        if (round === ROUNDS - 1) break;
        await noise.pause();
        await sleep(SETTLE_MS);
        quietPhases.push(await phase());
        await noise.resume();
        await sleep(RESUME_WARMUP_MS);
      }
      const noisySequential = await sequential(SECONDS / ROUNDS);
      for (const [lane, outcomes] of Object.entries(await noise.stop())) {
        const into = (counts[lane] ??= {});
        for (const [outcome, count] of Object.entries(outcomes)) into[outcome] = (into[outcome] ?? 0) + count;
      }
      await sleep(SETTLE_MS);
      quietPhases.push(await phase());
      const result = { name, quiet: quietPhases, noisy: noisyPhases, sequential: noisySequential, ratio: Math.round(ratioToNeighbours(quietPhases, noisyPhases) * 100) / 100 };
      process.stdout.write(`${formatAbuse(result)}\n`);
      return result;
    };
    let before = await phase();
    const alone: AbuseResult[] = [];
    for (const lane of noiseLanes) {
      const result = await underAbuse(lane.name, [lane], before);
      alone.push(result);
      before = result.quiet.at(-1)!;
    }
    const all = together ? await underAbuse('all at once', noiseLanes, before) : null;
    const gatewayHeapMb = gatewayHeap.stop();
    const worst = (pick: (result: AbuseResult) => number): AbuseResult => alone.reduce((found, result) => (pick(result) > pick(found) ? result : found));
    const leastShare = worst((result) => -result.ratio);
    const worstP99 = worst((result) => combined(result.noisy).p99Ms);
    const worstSequential = worst((result) => result.sequential.p99Ms);
    process.stdout.write(`gateway heap high-water ${gatewayHeapMb} MB\n`);
    process.stdout.write(`least share: ${leastShare.name} ${Math.round(leastShare.ratio * 100)} % of quiet; worst probe p99: ${worstP99.name} ${combined(worstP99.noisy).p99Ms} ms; worst sequential p99: ${worstSequential.name} ${worstSequential.sequential.p99Ms} ms\n`);

    // The data pool: the quiet project's 1-row query, one at a time, alone then while the noisy project's slow queries fill its share.
    let dataPool: { quiet: SequentialResult; noisy: SequentialResult } | null = null;
    if (data !== null) {
      const oneRow = (): Promise<SequentialResult> => sequentialProbe({ port, path: data!.probePath, headers: { host: quietHost } }, SECONDS);
      const quietOneRow = await oneRow();
      const slow = startNoise({ port, host: `${noisy.subdomain}.localhost`, lanes: [{ name: 'slow-query', path: data.slowPath, method: 'GET', body: '', connections: 16 }], imageWidth: 1, imageHeight: 1 });
      await slow.ready;
      await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
      dataPool = { quiet: quietOneRow, noisy: await oneRow() };
      Object.assign(counts, await slow.stop());
      process.stdout.write(`data pool, another project's 1-row query one at a time: quiet ${formatSequential(dataPool.quiet)}\n`);
      process.stdout.write(`data pool, same while 16 slow queries fill one project's share: ${formatSequential(dataPool.noisy)}\n`);
    }

    const ready = await get(port, '/_readyz', { host: quietHost }).catch(() => ({ status: 0, body: '' }));
    const gatewayCrashed = gateway.child.exitCode !== null || gateway.child.signalCode !== null;
    const testRuns =
      process.env.NOISY_TEST_RUNS === '0'
        ? null
        : await testRunAbuse(ROOT, { ...stackEnv(), NODE_ENV: 'production' }, GATEWAY_NODE_FLAGS, SECONDS);
    if (testRuns !== null) {
      process.stdout.write(`control plane, another account's GET /v1/projects one at a time: quiet ${formatSequential(testRuns.quiet)}\n`);
      process.stdout.write(`control plane, same during 12 concurrent abusive test runs:        ${formatSequential(testRuns.noisy)}   heap high-water ${testRuns.heapHighWaterMb} MB\n`);
      process.stdout.write(`  test runs: ${Object.entries(testRuns.answers).map(([outcome, count]) => `${outcome}: ${count}`).join(', ')}\n`);
    }
    const crashes = Number(gatewayCrashed) + Number(testRuns?.crashed ?? false);
    process.stdout.write(`processes crashed: ${crashes}\n`);
    process.stdout.write('abusive answers (status code: count):\n');
    for (const [route, outcomes] of Object.entries(counts)) {
      process.stdout.write(`  ${route.padEnd(8)} ${Object.entries(outcomes).map(([outcome, count]) => `${outcome}: ${count}`).join(', ')}\n`);
    }
    const unclear = Object.entries(counts).flatMap(([lane, outcomes]) => Object.keys(outcomes).filter((outcome) => !isClear(lane, outcome)));
    const every = (holds: (result: AbuseResult) => boolean): boolean => alone.every(holds);
    const noisyRuns = [...alone, ...(all === null ? [] : [all])].map((result) => combined(result.noisy));
    // Under each abuse alone, as the goal reads; all of them at once is printed, not a goal (docs/gateway-bench.md).
    const goals = {
      sequential_probe_p50_lt_2_ms: every((result) => result.sequential.p50Ms < 2),
      sequential_probe_p99_lt_25_ms: every((result) => result.sequential.p99Ms < 25),
      probe_p99_lt_25_ms: every((result) => combined(result.noisy).p99Ms < 25),
      probe_throughput_ge_50_percent: every((result) => result.ratio >= 0.5),
      every_abusive_answer_clear: unclear.length === 0,
      probe_all_2xx: noisyRuns.every((run) => run.non2xx === 0 && run.errors === 0),
      gateway_alive_and_ready: !gatewayCrashed && ready.status === 200,
      no_process_crashed: crashes === 0,
      control_plane_probe_all_2xx: testRuns === null || (testRuns.noisy.failures === 0 && testRuns.quiet.failures === 0),
      data_pool_probe_p99_lt_200_ms: dataPool === null || dataPool.noisy.p99Ms < 200,
      data_pool_probe_all_2xx: dataPool === null || (dataPool.noisy.failures === 0 && dataPool.quiet.failures === 0),
    };
    process.stdout.write(`goals (under each abuse alone): ${JSON.stringify(goals)}\n`);
    process.stdout.write(
      `${JSON.stringify({
        drill: 'noisy-neighbour',
        seconds: SECONDS,
        probe_connections: PROBE_CONNECTIONS,
        quiet_sequential: quietSequential,
        abuses: alone.map(abuseFigures),
        all_at_once: all === null ? null : abuseFigures(all),
        gateway_heap_high_water_mb: gatewayHeapMb,
        test_runs: testRuns,
        data_pool: dataPool,
        crashes,
        abusive: counts,
        goals,
      })}\n`,
    );
    if (!Object.values(goals).every(Boolean)) process.exitCode = 1;
  } finally {
    if (process.env.NOISY_DEBUG === '1') for (const service of services) process.stdout.write(`--- ${service.name} output (tail) ---\n${service.output()}\n`);
    await Promise.all(services.map((service) => service.stop()));
    await data?.drop();
    await publisher.cleanup();
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`noisy-neighbour drill failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
