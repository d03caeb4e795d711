/**
 * Logs API on a large table: with BENCH_LOGS_ROWS (5,000,000) rows in one project, a filtered
 * page must come back in < 50 ms. The real control plane runs in-process on a throwaway,
 * migrated database (dropped at the end); the rows are seeded by bench/logs-api/seed-request-logs.ts.
 * Each case makes BENCH_LOGS_CALLS (200) HTTP calls after a warm-up, varying its filter values,
 * and reports p50/p99/max of the full round trip (session check, ownership check, keyset query,
 * JSON) against the target. Then GET …/logs/stats over the last 24 hours and 30 days (served
 * from the rollups; with an endpoint filter from the rows), same calls, same target.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createThrowawayDatabase, PrivateRedis } from '@flowgate/testing';
import { migrate } from '@flowgate/db';
import { createControlPlaneApp } from '../apps/control-plane/src/app.factory';
import { loadControlPlaneConfig } from '../apps/control-plane/src/config/control-plane.config';
import { SEED_PATHS, seedRequestLogs } from './logs-api/seed-request-logs';

const ROWS = Number(process.env.BENCH_LOGS_ROWS ?? 5_000_000);
const CALLS = Number(process.env.BENCH_LOGS_CALLS ?? 200);
const WARMUP = 20;
const DAYS = 30;
const TARGET_MS = 50;

interface Page {
  items: Array<{ id: string; time: string }>;
  next_cursor: string | null;
  prev_cursor: string | null;
}

type Query = Record<string, string | number | undefined>;

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
const STATUSES = [200, 400, 401, 404, 429, 500];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const database = await createThrowawayDatabase('flowgate_bench_logs');
  // A Redis of its own: each run signs up a new account, which would count against the local
  // stack's sign-ups from 127.0.0.1 (SIGNUP_PER_ADDRESS_PER_HOUR) for an hour.
  const redis = await PrivateRedis.start();
  const end = new Date();
  let closeApp: () => Promise<void> = async () => undefined;
  try {
    await migrate(database.url, { quiet: true });
    const base = loadControlPlaneConfig(process.env);
    const app = await createControlPlaneApp({
      ...base,
      databaseUrl: database.url,
      redisUrl: redis.url,
      redisClusterNodes: null,
      logLevel: process.env.LOG_LEVEL === 'info' ? 'info' : 'warn',
      publication: { ...base.publication, background: false },
    });
    await app.listen(0, '127.0.0.1');
    closeApp = () => app.close();
    const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;

    const post = async (path: string, body: unknown, token?: string) => {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, unknown>>;
    };
    const suffix = randomBytes(5).toString('hex');
    const { token } = (await post('/v1/auth/signup', { email: `bench-${suffix}@example.test`, password: `pw-${randomBytes(8).toString('hex')}` })) as { token: string };
    const project = (await post('/v1/projects', { name: 'Logs bench', subdomain: `bench${suffix}` }, token)) as { id: string };
    closeApp = async () => {
      await fetch(`${url}/v1/projects/${project.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      await app.close();
    };

    process.stdout.write(`seeding ${ROWS.toLocaleString('en')} rows into one project over ${DAYS} days…\n`);
    const { seconds: seedSeconds } = await seedRequestLogs(database.url, { projectId: project.id, rows: ROWS, days: DAYS, end });
    process.stdout.write(`seeded in ${seedSeconds.toFixed(1)} s\n\n`);

    const page = async (query: Query): Promise<{ ms: number; body: Page }> => {
      const search = new URLSearchParams(Object.entries(query).flatMap(([k, v]): Array<[string, string]> => (v === undefined ? [] : [[k, String(v)]])));
      const started = performance.now();
      const response = await fetch(`${url}/v1/projects/${project.id}/logs?${search}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as Page;
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`logs ${search}: ${response.status} ${JSON.stringify(body)}`);
      return { ms, body };
    };

    const hour = (i: number) => {
      const from = new Date(end.getTime() - ((i * 7919) % (DAYS * 24 - 1) + 1) * 3_600_000);
      return { from: from.toISOString(), to: new Date(from.getTime() + 3_600_000).toISOString() };
    };
    const cases: Array<{ name: string; query: (i: number) => Query }> = [
      { name: 'newest page, no filter', query: () => ({ limit: 50 }) },
      { name: 'status', query: (i) => ({ status: pick(STATUSES, i) }) },
      { name: 'method', query: (i) => ({ method: pick(METHODS, i) }) },
      { name: 'endpoint (/x and /api/x)', query: (i) => ({ endpoint: pick(SEED_PATHS, i) }) },
      { name: 'status + method', query: (i) => ({ status: pick(STATUSES, i), method: pick(METHODS, Math.floor(i / 6)) }) },
      { name: 'endpoint + status (rare)', query: (i) => ({ endpoint: pick(SEED_PATHS.slice(20), i), status: pick([404, 429, 500], i) }) },
      { name: 'one-hour time range', query: (i) => hour(i) },
      { name: 'time range + status', query: (i) => ({ ...hour(i), status: pick(STATUSES, i) }) },
      { name: 'limit 200, status', query: (i) => ({ limit: 200, status: pick(STATUSES, i) }) },
    ];

    const stats = async (query: Query): Promise<{ ms: number }> => {
      const search = new URLSearchParams(Object.entries(query).flatMap(([k, v]): Array<[string, string]> => (v === undefined ? [] : [[k, String(v)]])));
      const started = performance.now();
      const response = await fetch(`${url}/v1/projects/${project.id}/logs/stats?${search}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { totals: { count: number } };
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`stats ${search}: ${response.status} ${JSON.stringify(body)}`);
      return { ms };
    };
    const ago = (days: number) => new Date(end.getTime() - days * 86_400_000).toISOString();
    const statsCases: Array<{ name: string; query: (i: number) => Query }> = [
      { name: 'stats 24 h', query: () => ({}) },
      { name: 'stats 24 h, status class', query: (i) => ({ status: pick(['2xx', '4xx', '5xx'], i) }) },
      { name: 'stats 30 days', query: () => ({ from: ago(30) }) },
      { name: 'stats 30 days, method+status', query: (i) => ({ from: ago(30), method: pick(METHODS, i), status: pick(STATUSES, i) }) },
      { name: 'stats 24 h, endpoint (rows)', query: (i) => ({ endpoint: pick(SEED_PATHS, i) }) },
      { name: 'stats 30 days, endpoint (rows)', query: (i) => ({ from: ago(30), endpoint: pick(SEED_PATHS, i) }) },
    ];

    const results: Record<string, { p50: number; p99: number; max: number }> = {};
    const report = (name: string, samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      const result = { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)! };
      results[name] = result;
      const verdict = result.p99 < TARGET_MS ? 'ok' : 'OVER TARGET';
      process.stdout.write(
        `${name.padEnd(28)} p50 ${result.p50.toFixed(1).padStart(6)} ms   p99 ${result.p99.toFixed(1).padStart(6)} ms   max ${result.max.toFixed(1).padStart(6)} ms   ${verdict}\n`,
      );
    };

    // The fixed cost of an authenticated call (session lookup, JSON), for comparison.
    const baseline: number[] = [];
    for (let i = 0; i < WARMUP + CALLS; i++) {
      const started = performance.now();
      await (await fetch(`${url}/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json();
      if (i >= WARMUP) baseline.push(performance.now() - started);
    }
    const sortedBaseline = baseline.sort((a, b) => a - b);
    process.stdout.write(`baseline GET /v1/auth/me     p50 ${percentile(sortedBaseline, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(sortedBaseline, 99).toFixed(1).padStart(6)} ms\n`);

    for (const { name, query } of cases) {
      for (let i = 0; i < WARMUP; i++) await page(query(i));
      const samples: number[] = [];
      for (let i = 0; i < CALLS; i++) samples.push((await page(query(i + WARMUP))).ms);
      report(name, samples);
    }

    // Pagination: Next through 10 pages of a filter, then Back through them, from different starts.
    const next: number[] = [];
    const back: number[] = [];
    for (let walk = 0; next.length < CALLS; walk++) {
      const filter: Query = walk % 2 ? { status: pick(STATUSES, walk) } : { method: pick(METHODS, walk) };
      let current = (await page({ ...filter, ...hour(walk), to: end.toISOString() })).body;
      for (let i = 0; i < 10 && current.next_cursor; i++) {
        const step = await page({ ...filter, cursor: current.next_cursor });
        next.push(step.ms);
        current = step.body;
      }
      for (let i = 0; i < 10 && current.prev_cursor; i++) {
        const step = await page({ ...filter, cursor: current.prev_cursor });
        back.push(step.ms);
        current = step.body;
      }
    }
    report('Next (cursor) pages', next);
    report('Back (cursor) pages', back);

    const statsResults: Record<string, { p50: number; p99: number; max: number }> = {};
    for (const { name, query } of statsCases) {
      for (let i = 0; i < WARMUP; i++) await stats(query(i));
      const samples: number[] = [];
      for (let i = 0; i < CALLS; i++) samples.push((await stats(query(i + WARMUP))).ms);
      report(name, samples);
      statsResults[name] = results[name]!;
      delete results[name];
    }

    const worstP99 = Math.max(...Object.values(results).map((r) => r.p99));
    const round = (value: number) => Math.round(value * 10) / 10;
    process.stdout.write(`\nworst p99 ${worstP99.toFixed(1)} ms vs target ${TARGET_MS} ms: ${worstP99 < TARGET_MS ? 'met' : 'NOT met'}\n`);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'logs-api',
        rows: ROWS,
        calls_per_case: CALLS,
        seed_s: round(seedSeconds),
        target_ms: TARGET_MS,
        worst_p99_ms: round(worstP99),
        met: worstP99 < TARGET_MS,
        cases: Object.fromEntries(Object.entries(results).map(([name, r]) => [name, { p50_ms: round(r.p50), p99_ms: round(r.p99) }])),
        stats: Object.fromEntries(Object.entries(statsResults).map(([name, r]) => [name, { p50_ms: round(r.p50), p99_ms: round(r.p99), met: r.p99 < TARGET_MS }])),
      })}\n`,
    );
  } finally {
    await closeApp().catch(() => undefined);
    await database.drop();
    await redis.down();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`logs-api bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
