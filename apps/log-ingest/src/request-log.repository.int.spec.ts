import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { RequestLogRepository } from './request-log.repository';
import { makeEvent } from './testing/request-log-fixtures';

interface RollupRow {
  span_s: number;
  bucket: Date;
  path: string;
  method: string;
  status: number;
  count: number;
  errors: number;
  latency_histogram: Record<string, number>;
}

describe('request-log repository (real PostgreSQL)', () => {
  let pool: Pool;
  const projects: string[] = [];
  const newProject = () => {
    const id = randomUUID();
    projects.push(id);
    return id;
  };
  const rollups = async (projectId: string) =>
    (
      await pool.query<RollupRow>(
        `SELECT span_s, bucket, path, method, status, count, errors, latency_histogram FROM request_log_rollups
          WHERE project_id = $1 ORDER BY span_s, path, method, status, bucket`,
        [projectId],
      )
    ).rows;

  beforeAll(() => {
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  });

  afterAll(async () => {
    await pool.query('DELETE FROM request_logs WHERE project_id = ANY($1::uuid[])', [projects]);
    await pool.query('DELETE FROM request_log_rollups WHERE project_id = ANY($1::uuid[])', [projects]);
    await pool.end();
  });

  it('stores the query, the error message and the block that failed', async () => {
    const project = newProject();
    const event = makeEvent({ project_id: project, status: 500, code: 'flow_error', query: 'id=7&x=%20', message: 'Decode Text (x1): bad hex', error_node_id: 'x1' });
    await new RequestLogRepository(pool).write([event]);
    const { rows } = await pool.query('SELECT query, message, error_node_id FROM request_logs WHERE project_id = $1', [project]);
    expect(rows).toEqual([{ query: 'id=7&x=%20', message: 'Decode Text (x1): bad hex', error_node_id: 'x1' }]);
  });

  it('adds every inserted row to the minute and hour rollups of the project, of its method and status, and of its path', async () => {
    const project = newProject();
    const at = (iso: string) => ({ project_id: project, time: iso });
    const events = [
      makeEvent({ ...at('2026-11-20T10:00:05.000Z'), path: '/a', method: 'GET', status: 200, duration_ms: 1 }),
      makeEvent({ ...at('2026-11-20T10:00:59.999Z'), path: '/a', method: 'GET', status: 200, duration_ms: 1 }),
      makeEvent({ ...at('2026-11-20T10:01:00.000Z'), path: '/b', method: 'POST', status: 500, code: 'flow_error', duration_ms: 100 }),
      makeEvent({ ...at('2026-11-20T11:30:00.000+01:00'), path: '/a', method: 'GET', status: 404, code: 'not_found', duration_ms: 0.001 }),
    ];
    expect(await new RequestLogRepository(pool).write(events)).toEqual({ inserted: 4 });
    const rows = await rollups(project);
    const pick = (span: number, path: string, method: string, status: number) =>
      rows.filter((r) => r.span_s === span && r.path === path && r.method === method && r.status === status).map((r) => [r.bucket.toISOString(), r.count, r.errors]);
    // 11:30+01:00 is 10:30Z.
    expect(pick(60, '', '', 0)).toEqual([
      ['2026-11-20T10:00:00.000Z', 2, 0],
      ['2026-11-20T10:01:00.000Z', 1, 1],
      ['2026-11-20T10:30:00.000Z', 1, 1],
    ]);
    expect(pick(3600, '', '', 0)).toEqual([['2026-11-20T10:00:00.000Z', 4, 2]]);
    expect(pick(3600, '', 'GET', 200)).toEqual([['2026-11-20T10:00:00.000Z', 2, 0]]);
    expect(pick(3600, '', 'GET', 404)).toEqual([['2026-11-20T10:00:00.000Z', 1, 1]]);
    expect(pick(60, '/b', 'POST', 500)).toEqual([['2026-11-20T10:01:00.000Z', 1, 1]]);
    expect(pick(3600, '/a', 'GET', 200)).toEqual([['2026-11-20T10:00:00.000Z', 2, 0]]);
    // 1 ms → bucket 60, 100 ms → 120, below 0.01 ms → 0.
    expect(rows.find((r) => r.span_s === 3600 && r.path === '' && r.method === '')!.latency_histogram).toEqual({ '0': 1, '60': 2, '120': 1 });
    // 3 groupings × 2 spans: the hour rows are one per (grouping, key); minutes split the first two events from the others.
    expect(rows.filter((r) => r.span_s === 3600)).toHaveLength(1 + 3 + 3);
  });

  it('counts a redelivered batch once, and only the new events of a batch that is partly redelivered', async () => {
    const project = newProject();
    const repository = new RequestLogRepository(pool);
    const first = Array.from({ length: 5 }, (_, i) => makeEvent({ project_id: project, time: '2026-11-20T12:00:00.000Z', duration_ms: 2 + i }));
    await repository.write(first);
    const once = await rollups(project);
    expect(await repository.write(first)).toEqual({ inserted: 0 });
    expect(await rollups(project)).toEqual(once);

    const extra = makeEvent({ project_id: project, time: '2026-11-20T12:00:30.000Z', duration_ms: 2, status: 429, code: 'rate_limited' });
    expect(await repository.write([...first.slice(2), extra])).toEqual({ inserted: 1 });
    const total = (await rollups(project)).find((r) => r.span_s === 60 && r.path === '' && r.method === '')!;
    expect(total).toMatchObject({ count: 6, errors: 1 });
    expect(Object.values(total.latency_histogram).reduce((a, b) => a + b, 0)).toBe(6);
  });

  it('writes no rollups when they are switched off (the benchmark baseline)', async () => {
    const project = newProject();
    expect(await new RequestLogRepository(pool, { rollups: false }).write([makeEvent({ project_id: project }), makeEvent({ project_id: project })])).toEqual({ inserted: 2 });
    expect(await rollups(project)).toEqual([]);
  });
});
