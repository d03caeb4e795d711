/**
 * `npm run bench -- tenants`: what a tenant costs as their number grows (docs/scaling.md). Side
 * by side, a fleet of 2 projects and one of `TENANTS_PROJECTS` (2 000; five live endpoints each),
 * published to a Redis of the bench's own:
 * - a gateway holding them: Redis commands it sends for one deploy (besides its polling), an
 *   unrelated project's p99 at 400 req/s quiet and while another project deploys twice a
 *   second, its RSS after touching every project (once idle for 30 s: see gateway-tenants.ts)
 *   with the default bound and with a small one (`TENANTS_SMALL_BOUND_MB`, 16) — the few
 *   projects are served as many requests in all as the many, so the gap is what holding costs;
 * - a control plane on a database of its own with 1 and then `TENANTS_PROJECTS` projects made
 *   through its API: the time from its start to `/readyz` after a restart (Redis holds the state);
 *   then `TENANTS_HOT_ROWS` (855 000) rows of its first project written today through
 *   log-ingest's repository, autovacuum off for the partition, and that project's `/logs` p99
 *   before and after log-ingest's partition statistics analysed the partition;
 * - the request logs: log-ingest's and PostgreSQL's CPU per stored request with traffic from 1
 *   project and from `TENANTS_LOG_PROJECTS` (500) at `TENANTS_LOG_RATE` (3 000) events/s, turns of
 *   `TENANTS_LOG_SECONDS` (60), `TENANTS_LOG_ROUNDS` (3) each (tenants/spread-logs.ts; also alone
 *   as `npm run bench -- log-ingest-projects`).
 * Goals are printed beside the figures; nothing here is asserted.
 */
import { migrate } from '@flowgate/db';
import { createThrowawayDatabase, PrivateRedis, TestPublisher } from '@flowgate/testing';
import { Redis } from 'ioredis';
import { ControlPlaneFleet } from './tenants/control-plane-restart';
import { fillHotProject } from './tenants/hot-logs';
import { measureSpreadLogs } from './tenants/spread-logs';
import { type GatewayFigures, TenantFleet } from './tenants/gateway-tenants';

const MANY = Number(process.env.TENANTS_PROJECTS ?? 2000);
const SMALL_BOUND_MB = Number(process.env.TENANTS_SMALL_BOUND_MB ?? 16);
const HOT_ROWS = Number(process.env.TENANTS_HOT_ROWS ?? 855_000);
const HOT_CALLS = 200;
const LOG_PROJECTS = Number(process.env.TENANTS_LOG_PROJECTS ?? 500);
const LOG_RATE = Number(process.env.TENANTS_LOG_RATE ?? 3_000);
const LOG_SECONDS = Number(process.env.TENANTS_LOG_SECONDS ?? 60);
const LOG_ROUNDS = Number(process.env.TENANTS_LOG_ROUNDS ?? 3);

const row = (what: string, few: string | number, many: string | number, goal: string) =>
  `${what.padEnd(52)} ${String(few).padStart(10)} ${String(many).padStart(12)}   ${goal}`;
const fixed = (value: number, digits = 1) => value.toFixed(digits);

async function gatewayFigures(redis: PrivateRedis): Promise<{ few: GatewayFigures; many: GatewayFigures }> {
  const client = new Redis(redis.url);
  try {
    const fleet = new TenantFleet(new TestPublisher(client), redis.url, MANY);
    await fleet.grow(2);
    const few = await fleet.measure(2, SMALL_BOUND_MB);
    await fleet.grow(MANY);
    const many = await fleet.measure(MANY, SMALL_BOUND_MB);
    return { few, many };
  } finally {
    client.disconnect();
  }
}

type Restart = { ms: number; cpuSeconds: number };

async function controlPlaneFigures(redis: PrivateRedis): Promise<{ few: Restart; many: Restart; hotLogsP99Ms: number; neverAnalysedP99Ms: number }> {
  const database = await createThrowawayDatabase('flowgate_bench_tenants');
  let fleet: ControlPlaneFleet | null = null;
  try {
    await migrate(database.url, { quiet: true });
    fleet = await ControlPlaneFleet.start(database.url, redis.url);
    await fleet.grow(1);
    const few = await fleet.restart();
    await fleet.grow(MANY);
    // The first restart after growing may find differing projects; the figure is the next one's.
    await fleet.restart();
    const many = await fleet.restart();
    const hot = await fillHotProject(database.url, fleet.firstProjectId, HOT_ROWS);
    const neverAnalysedP99Ms = await fleet.logsP99(HOT_CALLS);
    await hot.analyse();
    return { few, many, neverAnalysedP99Ms, hotLogsP99Ms: await fleet.logsP99(HOT_CALLS) };
  } finally {
    await fleet?.stop();
    await database.drop();
  }
}

async function main(): Promise<void> {
  const load = () => (require('node:os') as typeof import('node:os')).loadavg().map((n) => n.toFixed(2)).join(' ');
  const loadBefore = load();
  const gatewayRedis = await PrivateRedis.start();
  const controlRedis = await PrivateRedis.start();
  try {
    const gateway = await gatewayFigures(gatewayRedis);
    const ready = await controlPlaneFigures(controlRedis);
    const logs = await measureSpreadLogs({ rate: LOG_RATE, seconds: LOG_SECONDS, rounds: LOG_ROUNDS, projects: LOG_PROJECTS, port: 3094 });
    const { few, many } = gateway;
    console.log(`\ntenants: load average before ${loadBefore}, after ${load()}`);
    console.log(row('', 'few', `${MANY}`, 'goal'));
    console.log(row('gateway: Redis commands per deploy (besides polling)', few.commandsPerDeploy, many.commandsPerDeploy, 'independent of N'));
    console.log(row('gateway: project documents read per deploy', few.documentsPerDeploy, many.documentsPerDeploy, '1'));
    console.log(row('unrelated project p99, quiet (ms)', few.quietP99Ms, many.quietP99Ms, ''));
    console.log(row('unrelated project p99, another deploying 2/s (ms)', few.deployingP99Ms, many.deployingP99Ms, '≤ 15 ms'));
    console.log(row('gateway RSS, default bound (MB)', fixed(few.rssDefaultMb), fixed(many.rssDefaultMb), ''));
    console.log(row(`gateway RSS, GATEWAY_PROJECT_CACHE_MB=${SMALL_BOUND_MB} (MB)`, fixed(few.rssBoundedMb), fixed(many.rssBoundedMb), `growth ≤ ${SMALL_BOUND_MB} MB`));
    console.log(row('control plane ready after a restart (ms)', fixed(ready.few.ms, 0), fixed(ready.many.ms, 0), '≤ 5 000 ms'));
    console.log(row('control plane CPU until ready (s)', fixed(ready.few.cpuSeconds, 2), fixed(ready.many.cpuSeconds, 2), 'independent of N'));
    console.log(row(`hot project /logs p99, ${HOT_ROWS} rows today, never analysed (ms)`, '', fixed(ready.neverAnalysedP99Ms), ''));
    console.log(row('the same once log-ingest has analysed the partition (ms)', '', fixed(ready.hotLogsP99Ms), '≤ 50 ms'));
    console.log(row(`request logs over 1 / ${LOG_PROJECTS} projects at ${LOG_RATE}/s:`, '1', `${LOG_PROJECTS}`, ''));
    console.log(row('  log-ingest CPU per request (µs)', logs.one.log_ingest_us, logs.many.log_ingest_us, `${logs.ratio.log_ingest}×`));
    console.log(row('  PostgreSQL CPU per request (µs)', logs.one.postgres_us, logs.many.postgres_us, `${logs.ratio.postgres}×`));
    console.log(row('  both (µs)', fixed(logs.one.log_ingest_us + logs.one.postgres_us, 2), fixed(logs.many.log_ingest_us + logs.many.postgres_us, 2), `${logs.ratio.both}× (goal ≤ 1.5×)`));
    console.log(
      JSON.stringify({
        bench: 'tenants',
        projects: MANY,
        commands_per_deploy: [few.commandsPerDeploy, many.commandsPerDeploy],
        unrelated_p99_ms_deploying: [few.deployingP99Ms, many.deployingP99Ms],
        rss_growth_mb_small_bound: fixed(many.rssBoundedMb - few.rssBoundedMb),
        ready_ms: [Math.round(ready.few.ms), Math.round(ready.many.ms)],
        ready_cpu_s: [Number(fixed(ready.few.cpuSeconds, 2)), Number(fixed(ready.many.cpuSeconds, 2))],
        hot_logs_p99_ms: [Number(fixed(ready.neverAnalysedP99Ms)), Number(fixed(ready.hotLogsP99Ms))],
        log_cost_us: { one: logs.one, many: logs.many, ratio: logs.ratio, projects: LOG_PROJECTS, rate: LOG_RATE },
        load: loadBefore,
      }),
    );
  } finally {
    await gatewayRedis.down();
    await controlRedis.down();
  }
}

// The log measurement's Kafka clients keep timers of their own after they disconnect (as in
// log-ingest-projects): the bench ends when its figures are printed.
main().then(
  () => process.exit(),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
