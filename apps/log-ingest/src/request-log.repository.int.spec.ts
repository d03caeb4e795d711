import { randomUUID } from 'node:crypto';
import { foldRequestLogRollupDeltas, rollupInsertSql } from '@flowgate/db';
import { Pool } from 'pg';
import { binaryCopyData } from './copy-binary';
import { RequestLogRepository } from './request-log.repository';
import { makeEvent } from '@flowgate/testing';

interface RollupRow {
  span_s: number;
  environment: string;
  bucket: Date;
  method: string;
  status: number;
  count: number;
  errors: number;
  /** One per shard that wrote to the cell (folds write shard 0; earlier versions wrote more). */
  histograms: Array<Record<string, number>>;
}

const histogramOf = (row: RollupRow) => {
  const sum: Record<string, number> = {};
  for (const histogram of row.histograms) for (const [bucket, n] of Object.entries(histogram)) sum[bucket] = (sum[bucket] ?? 0) + n;
  return sum;
};

describe('request-log repository (real PostgreSQL)', () => {
  let pool: Pool;
  const projects: string[] = [];
  const newProject = () => {
    const id = randomUUID();
    projects.push(id);
    return id;
  };
  /** The project's rollups once the deltas are folded (whoever folds them: a log-ingest beside may). */
  const rollups = async (projectId: string) => {
    await foldRequestLogRollupDeltas(pool);
    return (
      await pool.query<RollupRow>(
        `SELECT span_s, environment, bucket, method, status, sum(count)::int AS count, sum(errors)::int AS errors,
                jsonb_agg(latency_histogram) AS histograms
           FROM request_log_rollups WHERE project_id = $1
          GROUP BY span_s, environment, bucket, method, status ORDER BY span_s, environment, method, status, bucket`,
        [projectId],
      )
    ).rows;
  };

  beforeAll(() => {
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  });

  afterAll(async () => {
    await pool.query('DELETE FROM request_logs WHERE project_id = ANY($1::uuid[])', [projects]);
    await pool.query('DELETE FROM request_log_rollups WHERE project_id = ANY($1::uuid[])', [projects]);
    await pool.query('DELETE FROM request_log_rollup_deltas WHERE project_id = ANY($1::uuid[])', [projects]);
    await pool.end();
  });

  it('stores the query, the error message and the block that failed', async () => {
    const project = newProject();
    const event = makeEvent({ project_id: project, status: 500, code: 'flow_error', query: 'id=7&x=%20', message: 'Decode Text (x1): bad hex', error_node_id: 'x1' });
    await new RequestLogRepository(pool).write([event]);
    const { rows } = await pool.query('SELECT query, message, error_node_id FROM request_logs WHERE project_id = $1', [project]);
    expect(rows).toEqual([{ query: 'id=7&x=%20', message: 'Decode Text (x1): bad hex', error_node_id: 'x1' }]);
  });

  it('stores text exactly as sent, whatever characters it holds (quotes, backslashes, braces, commas, "NULL", spaces, emoji)', async () => {
    const project = newProject();
    const texts = ['a"b', 'back\\slash\\', '{x,y}', 'NULL', ' lead and trail ', '', 'ünï 😀', '"', '\\', 'tab\there\nnewline'];
    const events = texts.map((text, n) =>
      makeEvent({ project_id: project, time: `2026-11-20T10:00:0${n}.000Z`, path: `/${text}`, query: text, message: text, code: 'c', error_node_id: text.slice(0, 100) }),
    );
    expect(await new RequestLogRepository(pool).write(events)).toEqual({ inserted: texts.length });
    const { rows } = await pool.query('SELECT path, query, message, error_node_id FROM request_logs WHERE project_id = $1 ORDER BY time', [project]);
    expect(rows).toEqual(texts.map((text) => ({ path: `/${text}`, query: text, message: text, error_node_id: text })));
  });

  it('stores the same rows whether a batch travels in binary (the gateway\'s times) or as text (a time in another form)', async () => {
    const [binaryProject, textProject] = [newProject(), newProject()];
    const [key, endpoint, otherEndpoint] = [randomUUID(), randomUUID().toUpperCase(), randomUUID()];
    const shapes = (project: string) => [
      makeEvent({ project_id: project, id: '6F9619FF-8B86-4011-B42D-00C04FC964FF', endpoint_id: endpoint, key_id: key, path: '/ünï/😀', method: 'PATCH', status: 201, duration_ms: 0.1, query: 'a=1&b=%20', environment: 'preview', time: '2026-11-20T10:00:00.123Z' }),
      makeEvent({ project_id: project, id: '00000000-0000-0000-0000-000000000000', endpoint_id: null, status: 503, code: 'upstream', message: 'tab\tnewline\nback\\slash', error_node_id: 'n1', duration_ms: 1234.5678, time: '2026-11-20T10:00:00.999Z' }),
      makeEvent({ project_id: project, id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', endpoint_id: otherEndpoint, duration_ms: 0, time: '2026-11-20T10:00:01.000Z' }),
    ];
    const textOnly = makeEvent({ project_id: textProject, time: '2026-11-20T12:00:01.5+02:00' });
    const repository = new RequestLogRepository(pool);
    // The first batch is one binaryCopyData takes, the second (with textOnly) one it declines.
    expect(binaryCopyData(shapes(binaryProject))).not.toBeNull();
    expect(binaryCopyData([...shapes(textProject), textOnly])).toBeNull();
    await repository.write(shapes(binaryProject));
    await repository.write([...shapes(textProject), textOnly]);
    const stored = async (project: string) =>
      (
        await pool.query(
          `SELECT id, time, endpoint_id, path, method, status, code, duration_ms, key_id, query, message, error_node_id, environment
             FROM request_logs WHERE project_id = $1 AND id <> $2 ORDER BY id`,
          [project, textOnly.id],
        )
      ).rows;
    const asText = await stored(textProject);
    expect(asText).toHaveLength(3);
    expect(await stored(binaryProject)).toEqual(asText);
    expect(asText[1]).toMatchObject({ id: '6f9619ff-8b86-4011-b42d-00c04fc964ff', key_id: key, path: '/ünï/😀', duration_ms: 0.1, environment: 'preview' });
    expect(asText[1].time.toISOString()).toBe('2026-11-20T10:00:00.123Z');
  });

  it('stores streamed, the cache outcome and the details alike on every write path: binary COPY, text COPY and the INSERT of a redelivered batch', async () => {
    const [binaryProject, textProject, insertProject] = [newProject(), newProject(), newProject()];
    const details = {
      headers: [['host', 'shop.example'], ['content-type', 'application/json'], ['x-odd', 'tab\there "quoted" \\ ünï 😀']] as Array<[string, string]>,
      body: '{"name":"Ada","note":"line\nbreak\ttab \\ {x,y} NULL"}',
      body_bytes: 9000,
      body_truncated: true,
      response_bytes: 42,
    };
    const shapes = (project: string, time: (n: number) => string) => [
      makeEvent({ project_id: project, time: time(0), streamed: true }),
      makeEvent({ project_id: project, time: time(1), cache: 'hit', details: JSON.stringify(details) }),
      makeEvent({ project_id: project, time: time(2), cache: 'miss', details: JSON.stringify({ ...details, body: null, body_bytes: null, body_truncated: false, response_bytes: null }) }),
      makeEvent({ project_id: project, time: time(3) }),
    ];
    const repository = new RequestLogRepository(pool);
    const binary = shapes(binaryProject, (n) => `2026-11-20T10:00:0${n}.000Z`);
    expect(binaryCopyData(binary)).not.toBeNull();
    await repository.write(binary);
    const text = shapes(textProject, (n) => `2026-11-20T12:00:0${n}.5+02:00`);
    expect(binaryCopyData(text)).toBeNull();
    await repository.write(text);
    // A redelivered batch (one event stored already) goes in by INSERT … ON CONFLICT DO NOTHING.
    const inserted = shapes(insertProject, (n) => `2026-11-20T10:00:0${n}.000Z`);
    await repository.write(inserted.slice(0, 1));
    expect(await repository.write(inserted)).toEqual({ inserted: 3 });
    const stored = async (project: string) =>
      (await pool.query('SELECT streamed, cache, details FROM request_logs WHERE project_id = $1 ORDER BY time', [project])).rows;
    const expected = [
      { streamed: true, cache: null, details: null },
      { streamed: false, cache: 'hit', details },
      { streamed: false, cache: 'miss', details: { ...details, body: null, body_bytes: null, body_truncated: false, response_bytes: null } },
      { streamed: false, cache: null, details: null },
    ];
    expect(await stored(binaryProject)).toEqual(expected);
    expect(await stored(textProject)).toEqual(expected);
    expect(await stored(insertProject)).toEqual(expected);
  });

  it('adds every inserted row to the minute and hour rollups of the project and of its method and status', async () => {
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
    const pick = (span: number, method: string, status: number) =>
      rows.filter((r) => r.span_s === span && r.method === method && r.status === status).map((r) => [r.bucket.toISOString(), r.count, r.errors]);
    // 11:30+01:00 is 10:30Z.
    expect(pick(60, '', 0)).toEqual([
      ['2026-11-20T10:00:00.000Z', 2, 0],
      ['2026-11-20T10:01:00.000Z', 1, 1],
      ['2026-11-20T10:30:00.000Z', 1, 1],
    ]);
    expect(pick(3600, '', 0)).toEqual([['2026-11-20T10:00:00.000Z', 4, 2]]);
    expect(pick(3600, 'GET', 200)).toEqual([['2026-11-20T10:00:00.000Z', 2, 0]]);
    expect(pick(3600, 'GET', 404)).toEqual([['2026-11-20T10:00:00.000Z', 1, 1]]);
    expect(pick(60, 'POST', 500)).toEqual([['2026-11-20T10:01:00.000Z', 1, 1]]);
    // 1 ms → bucket 60, 100 ms → 120, below 0.01 ms → 0.
    expect(histogramOf(rows.find((r) => r.span_s === 3600 && r.method === '')!)).toEqual({ '0': 1, '60': 2, '120': 1 });
    expect(rows.filter((r) => r.span_s === 3600)).toHaveLength(1 + 3);
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
    const total = (await rollups(project)).find((r) => r.span_s === 60 && r.method === '')!;
    expect(total).toMatchObject({ count: 6, errors: 1 });
    expect(Object.values(histogramOf(total)).reduce((a, b) => a + b, 0)).toBe(6);
  });

  it('counts an event that comes twice in one batch once', async () => {
    const project = newProject();
    const event = makeEvent({ project_id: project, time: '2026-11-20T13:00:00.000Z' });
    expect(await new RequestLogRepository(pool).write([event, event])).toEqual({ inserted: 1 });
    expect((await rollups(project)).map((r) => r.count)).toEqual([1, 1, 1, 1]);
  });

  it('stores a batch written by two writers at once once (a rebalance hands a partition over mid-batch)', async () => {
    const project = newProject();
    const repository = new RequestLogRepository(pool);
    const events = Array.from({ length: 200 }, (_, i) => makeEvent({ project_id: project, time: `2026-11-20T16:00:${String(i % 60).padStart(2, '0')}.000Z` }));
    const results = await Promise.all([repository.write(events), new RequestLogRepository(pool).write(events.slice(50))]);
    expect(results[0].inserted + results[1].inserted).toBe(200);
    const { rows } = await pool.query<{ n: number; ids: number }>('SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM request_logs WHERE project_id = $1', [project]);
    expect(rows[0]).toEqual({ n: 200, ids: 200 });
    const total = (await rollups(project)).filter((r) => r.span_s === 3600 && r.method === '');
    expect(total.map((r) => r.count)).toEqual([200]);
  });

  it('keeps writing after a redelivered batch (the writer recovers from the duplicate)', async () => {
    const project = newProject();
    const repository = new RequestLogRepository(pool);
    const batch = () => Array.from({ length: 20 }, () => makeEvent({ project_id: project, time: '2026-11-20T17:00:00.000Z' }));
    const first = batch();
    await repository.write(first);
    for (let i = 0; i < 5; i += 1) {
      expect(await repository.write([...first.slice(i), ...batch()])).toEqual({ inserted: 20 });
    }
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM request_logs WHERE project_id = $1', [project]);
    expect(rows[0].n).toBe(120);
  });

  it('counts the batches of concurrent writers of one cell, each appended as its own delta', async () => {
    const project = newProject();
    const repository = new RequestLogRepository(pool);
    const batch = () => Array.from({ length: 50 }, () => makeEvent({ project_id: project, time: '2026-11-20T14:00:00.000Z' }));
    await Promise.all([repository.write(batch()), repository.write(batch()), new RequestLogRepository(pool).write(batch())]);
    const total = (await rollups(project)).filter((r) => r.method === '').map((r) => [r.span_s, r.count]);
    expect(total).toEqual([
      [60, 150],
      [3600, 150],
    ]);
  });

  it('computes the same rollups as the SQL rebuild from the stored rows', async () => {
    const project = newProject();
    const rebuilt = newProject();
    const methods = ['GET', 'POST', 'DELETE'];
    const statuses = [200, 201, 400, 404, 500];
    const events = Array.from({ length: 400 }, (_, i) =>
      makeEvent({
        project_id: project,
        time: new Date(Date.UTC(2026, 10, 20, 15, 0, 0) + ((i * 7919) % 7_200_000)).toISOString(),
        method: methods[i % 3],
        status: statuses[i % 5],
        duration_ms: Math.exp((i % 97) / 9) / 50,
        environment: i % 4 === 0 ? 'preview' : 'live',
      }),
    );
    await new RequestLogRepository(pool).write(events);
    await pool.query(rollupInsertSql('(SELECT $2::uuid AS project_id, environment, time, method, status, duration_ms FROM request_logs WHERE project_id = $1)'), [project, rebuilt]);
    const comparable = async (id: string) => (await rollups(id)).map((row) => ({ ...row, histograms: [histogramOf(row)] }));
    const fromIngest = await comparable(project);
    expect(fromIngest.length).toBeGreaterThan(30);
    expect(await comparable(rebuilt)).toEqual(fromIngest);
    const previewTotal = fromIngest.filter((row) => row.environment === 'preview' && row.span_s === 60 && row.method === '').reduce((sum, row) => sum + row.count, 0);
    expect(previewTotal).toBe(100);
  });

  it('writes no rollups when they are switched off (the benchmark baseline)', async () => {
    const project = newProject();
    expect(await new RequestLogRepository(pool, { rollups: false }).write([makeEvent({ project_id: project }), makeEvent({ project_id: project })])).toEqual({ inserted: 2 });
    expect(await rollups(project)).toEqual([]);
    const { rows } = await pool.query('SELECT 1 FROM request_log_rollup_deltas WHERE project_id = $1', [project]);
    expect(rows).toEqual([]);
  });
});
