import { randomUUID } from 'node:crypto';
import { foldRequestLogRollupDeltas, Prisma, rollupInsertSql } from '@flowgate/db';
import { Pool } from 'pg';
import { type TestAccount, type TestApp, startTestApp } from '../testing/test-app';

interface Row {
  id: string;
  time: Date;
  path: string;
  method: string;
  status: number;
  duration_ms: number;
  environment?: 'live' | 'preview';
}

/** Nearest-rank percentile of the exact values. */
function exactPercentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

jest.setTimeout(60_000);

describe('logs stats API (real PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let projectId: string;
  let base: string;
  const rows: Row[] = [];
  // A fixed past range of 6 hours, and a few requests within the last day (default range).
  const start = Date.parse('2026-11-10T00:00:00Z');
  const methods = ['GET', 'GET', 'POST', 'DELETE'];
  const statuses = [200, 200, 200, 201, 404, 429, 500];
  const paths = ['/orders', '/api/orders', '/users'];

  const insert = async (list: Row[]) => {
    await t.prisma.$executeRaw`
      INSERT INTO request_logs (id, time, project_id, path, method, status, duration_ms, environment)
      VALUES ${Prisma.join(
        list.map((r) => Prisma.sql`(${r.id}::uuid, ${r.time}, ${projectId}::uuid, ${r.path}, ${r.method}, ${r.status}, ${r.duration_ms}, ${r.environment ?? 'live'})`),
      )}`;
    // The rollups as log-ingest writes them (apps/log-ingest tests that its JavaScript gives the same as this SQL).
    await t.prisma.$executeRawUnsafe(
      rollupInsertSql('(SELECT project_id, environment, time, method, status, duration_ms FROM request_logs WHERE id = ANY($1::uuid[]))'),
      list.map((r) => r.id),
    );
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
    projectId = (await t.createProject(owner)).id;
    base = `/v1/projects/${projectId}/logs/stats`;
    for (let i = 0; i < 3000; i++) {
      // Spread over 6 hours except 02:00–03:00 (empty buckets); latencies over four orders of magnitude.
      let offset = (i * 7_919_131) % (6 * 3_600_000);
      if (offset >= 2 * 3_600_000 && offset < 3 * 3_600_000) offset += 3_600_000;
      rows.push({
        id: randomUUID(),
        time: new Date(start + offset),
        path: paths[i % 3]!,
        method: methods[i % 4]!,
        status: statuses[i % 7]!,
        duration_ms: Math.fround(Math.exp(((i * 37) % 1000) / 110) / 20),
      });
    }
    await insert(rows);
  });

  afterAll(async () => {
    await t.prisma.$executeRaw`DELETE FROM request_logs WHERE project_id = ${projectId}::uuid`;
    await t.prisma.$executeRaw`DELETE FROM request_log_rollups WHERE project_id = ${projectId}::uuid`;
    await t.prisma.$executeRaw`DELETE FROM request_log_rollup_deltas WHERE project_id = ${projectId}::uuid`;
    await t.close();
  });

  const range = { from: '2026-11-10T00:00:00Z', to: '2026-11-10T06:00:00Z' };
  const get = (query: Record<string, string | number>) => t.http().get(base).query(query).set(owner.auth);
  const within5 = (actual: number | null, exact: number) => {
    expect(actual).not.toBeNull();
    expect(Math.abs(actual! - exact) / exact).toBeLessThanOrEqual(0.05);
  };

  it('counts the preview address apart: environment=preview gives its requests alone, the default the live ones', async () => {
    const previewRange = { from: '2026-11-11T00:00:00Z', to: '2026-11-11T01:00:00Z' };
    const preview: Row[] = [200, 500, 200].map((status, i) => ({
      id: randomUUID(),
      time: new Date(Date.parse(previewRange.from) + i * 60_000),
      path: '/orders',
      method: 'GET',
      status,
      duration_ms: 2,
      environment: 'preview',
    }));
    await insert(preview);
    expect((await get({ ...previewRange, environment: 'preview' }).expect(200)).body.totals).toMatchObject({ count: 3, errors: 1 });
    expect((await get({ ...previewRange, environment: 'preview', status: '5xx' }).expect(200)).body.totals).toMatchObject({ count: 1 });
    expect((await get({ ...previewRange, environment: 'preview', endpoint: '/orders' }).expect(200)).body.totals).toMatchObject({ count: 3 });
    expect((await get(previewRange).expect(200)).body.totals).toMatchObject({ count: 0 });
    expect((await get({ ...range, environment: 'live' }).expect(200)).body.totals.count).toBe(3000);
    await get({ ...range, environment: 'staging' }).expect(400);
  });

  it('gives totals and percentiles within 5 % of the exact ones of the same rows, per bucket too', async () => {
    const response = await get({ ...range, interval: 3600 }).expect(200);
    const { totals, buckets } = response.body;
    expect(totals.count).toBe(rows.length);
    expect(totals.errors).toBe(rows.filter((r) => r.status >= 400).length);
    const all = rows.map((r) => r.duration_ms);
    within5(totals.p50_ms, exactPercentile(all, 0.5));
    within5(totals.p95_ms, exactPercentile(all, 0.95));
    within5(totals.p99_ms, exactPercentile(all, 0.99));
    expect(buckets).toHaveLength(6);
    for (const bucket of buckets) {
      const inBucket = rows.filter((r) => r.time.getTime() >= Date.parse(bucket.time) && r.time.getTime() < Date.parse(bucket.time) + 3_600_000);
      expect(bucket.count).toBe(inBucket.length);
      if (inBucket.length === 0) continue;
      within5(bucket.p50_ms, exactPercentile(inBucket.map((r) => r.duration_ms), 0.5));
      within5(bucket.p99_ms, exactPercentile(inBucket.map((r) => r.duration_ms), 0.99));
    }
  });

  it('gives an empty bucket a count of 0 and null percentiles', async () => {
    const { buckets } = (await get({ ...range, interval: 3600 }).expect(200)).body;
    expect(buckets[2]).toEqual({ time: '2026-11-10T02:00:00.000Z', count: 0, errors: 0, p50_ms: null, p95_ms: null, p99_ms: null });
  });

  it('adds minutes at the edges of whole hours (a range that does not start on the hour)', async () => {
    const from = '2026-11-10T00:30:00Z';
    const response = await get({ from, to: range.to, interval: 7200 }).expect(200);
    expect(response.body.totals.count).toBe(rows.filter((r) => r.time.getTime() >= Date.parse(from)).length);
    expect(response.body.buckets.map((b: { time: string }) => b.time)).toEqual(['2026-11-10T00:00:00.000Z', '2026-11-10T02:00:00.000Z', '2026-11-10T04:00:00.000Z']);
  });

  it.each([
    [{ status: '5xx' }, (r: Row) => r.status >= 500],
    [{ status: '2xx' }, (r: Row) => r.status >= 200 && r.status < 300],
    [{ status: 429 }, (r: Row) => r.status === 429],
    [{ method: 'post' }, (r: Row) => r.method === 'POST'],
    [{ method: 'GET', status: '4xx' }, (r: Row) => r.method === 'GET' && r.status >= 400 && r.status < 500],
    [{ endpoint: '/orders' }, (r: Row) => r.path === '/orders' || r.path === '/api/orders'],
    [{ endpoint: '/users', status: '2xx' }, (r: Row) => r.path === '/users' && r.status < 300],
  ])('filters by %j', async (filter, keep) => {
    const kept = rows.filter(keep);
    const { totals, buckets } = (await get({ ...range, ...filter }).expect(200)).body;
    expect(totals.count).toBe(kept.length);
    expect(totals.errors).toBe(kept.filter((r) => r.status >= 400).length);
    expect(buckets.reduce((sum: number, b: { count: number }) => sum + b.count, 0)).toBe(kept.length);
    within5(totals.p95_ms, exactPercentile(kept.map((r) => r.duration_ms), 0.95));
  });

  it('defaults to the last 24 hours in 15-minute buckets, so requests minutes apart land in bars of their own', async () => {
    const recent = Array.from({ length: 5 }, (_, i) => ({
      id: randomUUID(),
      time: new Date(Date.now() - (i + 1) * 1_200_000),
      path: '/recent',
      method: 'GET',
      status: 200,
      duration_ms: 2,
    }));
    await insert(recent);
    const { body } = await t.http().get(base).set(owner.auth).expect(200);
    expect(body.totals.count).toBe(5);
    expect(body.interval).toBe(900);
    expect(body.buckets.length).toBe(97);
    // Twenty minutes apart, more than a bucket whatever the clock's phase: each request has a bar of its own.
    expect(body.buckets.filter((b: { count: number }) => b.count > 0).map((b: { count: number }) => b.count)).toEqual([1, 1, 1, 1, 1]);
    expect(Date.parse(body.to) - Date.parse(body.from)).toBeGreaterThanOrEqual(24 * 3_600_000);
  });

  it.each([
    [{ interval: 90 }, 'interval'],
    [{ interval: 30 }, 'interval'],
    [{ interval: 'hourly' }, 'interval'],
    [{ ...range, interval: 60, from: '2026-10-01T00:00:00Z' }, 'interval'],
    [{ from: range.to, to: range.from }, 'from'],
    [{ from: 'yesterday' }, 'from'],
    [{ status: 'abc' }, 'status'],
    [{ status: '6xx' }, 'status'],
    [{ method: 'G E T' }, 'method'],
  ])('refuses %j with 400 naming %s', async (query, path) => {
    const response = await get(query).expect(400);
    expect(response.body).toMatchObject({ success: false, code: 'invalid_request', details: expect.arrayContaining([{ path, message: expect.any(String) }]) });
  });

  it('counts requests whose rollup deltas log-ingest has not folded yet, and gives the same figures once they are folded', async () => {
    const day = { from: '2026-11-12T00:00:00Z', to: '2026-11-12T03:00:00Z' };
    const fresh: Row[] = Array.from({ length: 400 }, (_, i) => ({
      id: randomUUID(),
      time: new Date(Date.parse(day.from) + ((i * 7_919_131) % (3 * 3_600_000))),
      path: '/orders',
      method: methods[i % 4]!,
      status: statuses[i % 7]!,
      duration_ms: Math.fround(Math.exp(((i * 37) % 1000) / 110) / 20),
    }));
    await t.prisma.$executeRaw`
      INSERT INTO request_logs (id, time, project_id, path, method, status, duration_ms)
      VALUES ${Prisma.join(fresh.map((r) => Prisma.sql`(${r.id}::uuid, ${r.time}, ${projectId}::uuid, ${r.path}, ${r.method}, ${r.status}, ${r.duration_ms})`))}`;
    // The deltas as log-ingest appends them (one per minute, method and status of a write), in
    // two writes (a cell may have several deltas); not folded.
    for (const half of [0, 1]) {
      await t.prisma.$executeRaw`
        INSERT INTO request_log_rollup_deltas (project_id, environment, bucket, method, status, write_id, count, latency_buckets, latency_counts)
        SELECT project_id, environment, minute, method, status, ${randomUUID()}::uuid, sum(n)::int, array_agg(lb), array_agg(n::int)
          FROM (SELECT project_id, environment, date_trunc('minute', time) AS minute, method, status, flowgate_latency_bucket(duration_ms) AS lb, count(*) AS n
                  FROM request_logs WHERE id = ANY(${fresh.filter((_, i) => i % 2 === half).map((r) => r.id)}::uuid[])
                 GROUP BY 1, 2, 3, 4, 5, 6) AS cells
         GROUP BY project_id, environment, minute, method, status`;
    }
    const queries = [{ ...day, interval: 3600 }, { ...day, interval: 600 }, { ...day, status: '5xx' }, { ...day, method: 'POST', interval: 7200 }];
    const unfolded = [];
    for (const query of queries) unfolded.push((await get(query).expect(200)).body);
    expect(unfolded[0].totals).toMatchObject({ count: 400, errors: fresh.filter((r) => r.status >= 400).length });
    within5(unfolded[0].totals.p95_ms, exactPercentile(fresh.map((r) => r.duration_ms), 0.95));
    expect(unfolded[1].buckets.map((b: { count: number }) => b.count)).toEqual(
      unfolded[1].buckets.map((b: { time: string }) => fresh.filter((r) => r.time.getTime() >= Date.parse(b.time) && r.time.getTime() < Date.parse(b.time) + 600_000).length),
    );
    expect(unfolded[2].totals.count).toBe(fresh.filter((r) => r.status >= 500).length);
    expect(unfolded[3].totals.count).toBe(fresh.filter((r) => r.method === 'POST').length);

    const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    try {
      await foldRequestLogRollupDeltas(pool);
    } finally {
      await pool.end();
    }
    for (const [i, query] of queries.entries()) expect((await get(query).expect(200)).body).toEqual(unfolded[i]);
  });

  it("answers 404 for another account's project", async () => {
    const stranger = await t.signup();
    await t.http().get(base).set(stranger.auth).expect(404);
  });
});
