/**
 * The noisy-neighbour drill (`npm run test:noisy`, issue 17). One gateway process (the
 * production build in dist/, with the deployment's Node flags), two projects. A probe — autocannon on the quiet
 * project's simple flow — is measured on the quiet gateway, then again while the noisy
 * project runs the worst flows there are at 50 concurrent connections (noise.ts, its own
 * process): the value-doubling flow of the issue, the largest allowed pattern on the largest
 * allowed text, maximum-size JSON bodies, image filters at the pixel cap (from a server on
 * 127.0.0.1), and a flow that uses up its CPU budget.
 *
 * Prints the probe's p50/p99 and throughput against the quiet run, the loop's longest stall
 * (prom-client's event-loop delay during the noise), and every abusive answer by status and
 * code. Goals: probe p99 < 25 ms, throughput ≥ 50 % of quiet, no 500 internal_error, no answer
 * without a JSON error body, no connection error, the gateway alive and ready afterwards.
 * Exit code 1 when a goal is missed. Env: NOISY_SECONDS (10), PROBE_CONNECTIONS (10),
 * NOISY_FLOWS (comma list of double, regex, json, image, cpu; default all), GATEWAY_NODE_FLAGS,
 * REDIS_URL, KAFKA_BROKERS.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import { publishedRoute, respond, TestPublisher, type Block } from '../../apps/gateway/src/testing/publication';
import { load, type LoadResult } from '../../bench/gateway/load';
import { freePort, get, startProcess, waitUntilServing, type Service } from '../../bench/gateway/processes';
import type { NoiseConfig, NoiseLane, NoiseMessage } from './noise';

const ROOT = path.resolve(__dirname, '../..');
/** `npm run build`'s backend part (scripts/build.js): the gateway runs from dist/ as deployed. */
const { buildBackend } = require(path.join(ROOT, 'scripts/build')) as { buildBackend(outDir?: string): number };
const SECONDS = Number(process.env.NOISY_SECONDS ?? 10);
const PROBE_CONNECTIONS = Number(process.env.PROBE_CONNECTIONS ?? 10);
const WARMUP_SECONDS = 3;
const GATEWAY_NODE_FLAGS = (process.env.GATEWAY_NODE_FLAGS ?? '--max-semi-space-size=4 --single-threaded-gc').split(' ').filter(Boolean);
/** The gateway's defaults, which the drill runs against. */
const BODY_LIMIT = 1024 * 1024;
const REGEX_PATTERN_LIMIT = 4096;
const IMAGE_SIDE = 5000; // 25 MP: FLOWGATE_IMAGE_MAX_PIXELS

const setVariable = (value: string): Block => ({ type: 'set_variable', config: { name: 'v', value } });
const changeCase = (index: number): Block => ({ type: 'manipulate_text', config: { input: '{local.v}', operation: index % 2 === 0 ? 'uppercase' : 'lowercase', ref: 'v' } });

const NOISY_ROUTES = [
  // The issue's reproduction: 24 doublings and 80 case changes of the body's text.
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
];

/** 50 connections over the five flows. */
function lanes(): NoiseLane[] {
  const items = Array.from({ length: 30_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] }));
  let count = items.length;
  let json = JSON.stringify({ items });
  while (Buffer.byteLength(json) > BODY_LIMIT - 64) json = JSON.stringify({ items: items.slice(0, (count -= 100)) });
  const pattern = '(a?)'.repeat(REGEX_PATTERN_LIMIT / 4);
  const all: NoiseLane[] = [
    { path: '/double', body: JSON.stringify({ s: 'x'.repeat(16) }), connections: 10 },
    { path: '/regex', body: JSON.stringify({ p: pattern, t: 'a'.repeat(BODY_LIMIT - pattern.length - 64) }), connections: 10 },
    { path: '/json', body: json, connections: 10 },
    { path: '/image', body: JSON.stringify({ url: '{{IMAGE_URL}}' }), connections: 10 },
    { path: '/cpu', body: JSON.stringify({ s: 'Ab'.repeat((BODY_LIMIT - 64) / 2) }), connections: 10 },
  ];
  // NOISY_FLOWS=double,json runs only those (to see what one kind of abuse costs); same connections each.
  const only = process.env.NOISY_FLOWS?.split(',').map((name) => `/${name.trim()}`);
  return only ? all.filter((lane) => only.includes(lane.path)) : all;
}

async function loopStallMs(port: number, host: string): Promise<number> {
  const metrics = await get(port, '/_metrics', { host });
  const match = /^flowgate_gateway_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(metrics.body);
  return match ? Math.round(Number(match[1]) * 1000) : NaN;
}

function startNoise(config: NoiseConfig): { ready: Promise<void>; stop(): Promise<Record<string, Record<string, number>>> } {
  const child = fork(path.join(ROOT, 'scripts/run-ts.js'), ['test/noisy/noise.ts'], { cwd: ROOT });
  child.send(config);
  const messages: NoiseMessage[] = [];
  const waiters: Array<() => void> = [];
  child.on('message', (message: NoiseMessage) => {
    messages.push(message);
    waiters.splice(0).forEach((wake) => wake());
  });
  const next = (want: (message: NoiseMessage) => boolean): Promise<NoiseMessage> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = messages.find(want);
        if (found) resolve(found);
        else if (child.exitCode !== null) reject(new Error('the noise process exited early'));
        else waiters.push(check);
      };
      child.once('exit', () => waiters.splice(0).forEach((wake) => wake()));
      check();
    });
  return {
    ready: next((message) => 'ready' in message).then(() => undefined),
    stop: async () => {
      child.send('stop');
      const message = await next((m) => 'counts' in m);
      return 'counts' in message ? message.counts : {};
    },
  };
}

const isClear = (outcome: string): boolean => !/internal_error|not_json|no_code|^connection|^0 /.test(outcome);

async function main(): Promise<void> {
  const { ensureServices } = require(path.join(ROOT, 'scripts/lib/services')) as {
    ensureServices(options: { redis: boolean; kafka: boolean; quiet?: boolean }): Promise<unknown>;
  };
  await ensureServices({ redis: true, kafka: true, quiet: true });
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const publisher = new TestPublisher(redis);
  const services: Service[] = [];
  try {
    const noisy = publisher.newProject(NOISY_ROUTES, { subdomain: `noisy-${randomBytes(4).toString('hex')}` });
    const quiet = publisher.newProject([publishedRoute({ path: '/ping', query_params: [{ key: 'name', default: 'probe' }], blocks: [setVariable('hello {params.name}'), changeCase(0), respond({ result: '{local.v}' })] })], {
      subdomain: `quiet-${randomBytes(4).toString('hex')}`,
    });
    await publisher.publish(noisy);
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
      },
      ROOT,
    );
    services.push(gateway);
    const quietHost = `${quiet.subdomain}.localhost`;
    await waitUntilServing(gateway, port, '/ping', { host: quietHost });
    const probeUrl = `http://127.0.0.1:${port}/ping`;
    const probe = (): Promise<LoadResult> => load(probeUrl, { connections: PROBE_CONNECTIONS, seconds: SECONDS, headers: { host: quietHost } });

    process.stdout.write(`noisy-neighbour drill: probe ${PROBE_CONNECTIONS} connections, ${SECONDS} s per phase; noise 50 connections over ${NOISY_ROUTES.length} flows\n`);
    await load(probeUrl, { connections: PROBE_CONNECTIONS, seconds: WARMUP_SECONDS, headers: { host: quietHost } });
    await loopStallMs(port, quietHost);
    const quietRun = await probe();
    const quietStall = await loopStallMs(port, quietHost);
    process.stdout.write(`quiet   probe ${String(quietRun.requestsPerSecond).padStart(6)} req/s   p50 ${quietRun.p50Ms} ms   p99 ${quietRun.p99Ms} ms   longest loop stall ${quietStall} ms\n`);

    const noise = startNoise({ port, host: `${noisy.subdomain}.localhost`, lanes: lanes(), imageWidth: IMAGE_SIDE, imageHeight: IMAGE_SIDE });
    await noise.ready;
    await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
    await loopStallMs(port, quietHost);
    const noisyRun = await probe();
    const noisyStall = await loopStallMs(port, quietHost);
    const counts = await noise.stop();
    process.stdout.write(`noisy   probe ${String(noisyRun.requestsPerSecond).padStart(6)} req/s   p50 ${noisyRun.p50Ms} ms   p99 ${noisyRun.p99Ms} ms   longest loop stall ${noisyStall} ms\n`);

    const ready = await get(port, '/_readyz', { host: quietHost });
    const throughputRatio = Math.round((noisyRun.requestsPerSecond / Math.max(1, quietRun.requestsPerSecond)) * 100) / 100;
    process.stdout.write('abusive answers (status code: count):\n');
    for (const [route, outcomes] of Object.entries(counts)) {
      process.stdout.write(`  ${route.padEnd(8)} ${Object.entries(outcomes).map(([outcome, count]) => `${outcome}: ${count}`).join(', ')}\n`);
    }
    const unclear = Object.values(counts).flatMap((outcomes) => Object.entries(outcomes).filter(([outcome]) => !isClear(outcome)));
    const goals = {
      probe_p99_lt_25_ms: noisyRun.p99Ms < 25,
      probe_throughput_ge_50_percent: throughputRatio >= 0.5,
      every_abusive_answer_clear: unclear.length === 0,
      probe_all_2xx: noisyRun.non2xx === 0 && noisyRun.errors === 0,
      gateway_alive_and_ready: gateway.child.exitCode === null && ready.status === 200,
    };
    process.stdout.write(`probe throughput under noise: ${Math.round(throughputRatio * 100)} % of quiet; goals: ${JSON.stringify(goals)}\n`);
    process.stdout.write(
      `${JSON.stringify({
        drill: 'noisy-neighbour',
        seconds: SECONDS,
        probe_connections: PROBE_CONNECTIONS,
        quiet: { rps: quietRun.requestsPerSecond, p50_ms: quietRun.p50Ms, p99_ms: quietRun.p99Ms, loop_stall_ms: quietStall },
        noisy: { rps: noisyRun.requestsPerSecond, p50_ms: noisyRun.p50Ms, p99_ms: noisyRun.p99Ms, loop_stall_ms: noisyStall },
        throughput_ratio: throughputRatio,
        abusive: counts,
        goals,
      })}\n`,
    );
    if (!Object.values(goals).every(Boolean)) process.exitCode = 1;
  } finally {
    if (process.env.NOISY_DEBUG === '1') for (const service of services) process.stdout.write(`--- ${service.name} output (tail) ---\n${service.output()}\n`);
    await Promise.all(services.map((service) => service.stop()));
    await publisher.cleanup();
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`noisy-neighbour drill failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
