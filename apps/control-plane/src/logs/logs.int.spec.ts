import { randomUUID } from 'node:crypto';
import { Prisma } from '@flowgate/db';
import { type TestAccount, type TestApp, startTestApp } from '../testing/test-app';

interface Row {
  id: string;
  time: Date;
  path: string;
  method: string;
  status: number;
  duration_ms: number;
  key_id: string | null;
  code: string | null;
}

describe('logs API (real PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let projectId: string;
  let base: string;
  const rows: Row[] = [];
  // From just now back to 47 days ago, so pages span the repository's time windows (1 h, 1 day, 1 week, 31 days, older).
  const now = Date.now() - 1000;
  const timeOf = (i: number) => new Date(now - Math.round(i ** 5 / 5) * 1000);
  const keyId = randomUUID();

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
    projectId = (await t.createProject(owner)).id;
    base = `/v1/projects/${projectId}/logs`;
    for (let i = 0; i < 30; i++) {
      rows.push({
        id: randomUUID(),
        // Entries 10 and 11 share a time: the id breaks the tie.
        time: timeOf(i === 11 ? 10 : i),
        path: ['/orders', '/api/orders', '/users'][i % 3]!,
        method: i % 2 ? 'POST' : 'GET',
        status: i % 5 === 0 ? 500 : 200,
        duration_ms: i + 0.5,
        key_id: i % 4 === 0 ? keyId : null,
        code: i % 5 === 0 ? 'flow_error' : null,
      });
    }
    await t.prisma.$executeRaw`
      INSERT INTO request_logs (id, time, project_id, endpoint_id, path, method, status, code, duration_ms, key_id)
      VALUES ${Prisma.join(
        rows.map(
          (r) =>
            Prisma.sql`(${r.id}::uuid, ${r.time}, ${projectId}::uuid, NULL, ${r.path}, ${r.method}, ${r.status}, ${r.code}, ${r.duration_ms}, ${r.key_id}::uuid)`,
        ),
      )}`;
  });
  afterAll(async () => {
    await t.prisma.$executeRaw`DELETE FROM request_logs WHERE project_id = ${projectId}::uuid`;
    await t.close();
  });

  /** Newest first, ties by id descending: the order the API promises. */
  const newestFirst = (list: Row[]) =>
    [...list].sort((x, y) => y.time.getTime() - x.time.getTime() || (x.id < y.id ? 1 : x.id > y.id ? -1 : 0));
  const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

  it('returns entries newest first in the documented shape', async () => {
    const response = await t.http().get(base).set(owner.auth).expect(200);
    expect(ids(response.body.items)).toEqual(ids(newestFirst(rows)));
    expect(response.body).toMatchObject({ next_cursor: null, prev_cursor: null });
    const newest = newestFirst(rows)[0]!;
    expect(response.body.items[0]).toEqual({
      id: newest.id,
      endpoint: newest.path,
      time: newest.time.toISOString(),
      method: newest.method,
      status: newest.status,
      duration_ms: newest.duration_ms,
      key_id: newest.key_id,
      code: newest.code,
      environment: 'live',
      trigger: 'http',
      streamed: false,
      cache: null,
    });
  });

  it('filters by trigger: a schedule\'s runs under trigger=schedule, requests under trigger=http, all without the filter', async () => {
    const ticks = [randomUUID(), randomUUID()];
    await t.prisma.$executeRaw`
      INSERT INTO request_logs (id, time, project_id, path, method, status, duration_ms, trigger)
      VALUES (${ticks[0]}::uuid, ${timeOf(2)}, ${projectId}::uuid, 'Nightly', 'SCHEDULE', 200, 1, 'schedule'),
             (${ticks[1]}::uuid, ${timeOf(3)}, ${projectId}::uuid, 'Nightly', 'SCHEDULE', 200, 1, 'schedule')`;
    try {
      const scheduled = await t.http().get(base).query({ trigger: 'schedule' }).set(owner.auth).expect(200);
      expect(scheduled.body.items.map((item: { id: string; method: string; trigger: string }) => [item.id, item.method, item.trigger])).toEqual([
        [ticks[0], 'SCHEDULE', 'schedule'],
        [ticks[1], 'SCHEDULE', 'schedule'],
      ]);
      const requests = await t.http().get(base).query({ limit: 200, trigger: 'http' }).set(owner.auth).expect(200);
      expect(ids(requests.body.items)).toEqual(ids(newestFirst(rows)));
      const all = await t.http().get(base).query({ limit: 200 }).set(owner.auth).expect(200);
      expect(all.body.items).toHaveLength(rows.length + 2);
      const bad = await t.http().get(base).query({ trigger: 'cron' }).set(owner.auth).expect(400);
      expect(bad.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'trigger', message: 'must be http, schedule or mcp' }] });
    } finally {
      await t.prisma.$executeRaw`DELETE FROM request_logs WHERE id = ANY(${ticks}::uuid[])`;
    }
  });

  it('marks answers of cached routes (hit, miss) and streamed ones, and filters by cache', async () => {
    const [hit, miss, streamed] = [randomUUID(), randomUUID(), randomUUID()];
    await t.prisma.$executeRaw`
      INSERT INTO request_logs (id, time, project_id, path, method, status, duration_ms, cache, streamed)
      VALUES (${hit}::uuid, ${timeOf(2)}, ${projectId}::uuid, '/catalogue', 'GET', 200, 0.4, 'hit', false),
             (${miss}::uuid, ${timeOf(3)}, ${projectId}::uuid, '/catalogue', 'GET', 200, 9, 'miss', false),
             (${streamed}::uuid, ${timeOf(4)}, ${projectId}::uuid, '/chat', 'POST', 200, 900, NULL, true)`;
    try {
      const hits = await t.http().get(base).query({ cache: 'hit' }).set(owner.auth).expect(200);
      expect(hits.body.items.map((item: { id: string; cache: string | null }) => [item.id, item.cache])).toEqual([[hit, 'hit']]);
      const misses = await t.http().get(base).query({ cache: 'miss' }).set(owner.auth).expect(200);
      expect(ids(misses.body.items)).toEqual([miss]);
      const all = await t.http().get(base).query({ limit: 200 }).set(owner.auth).expect(200);
      const byId = new Map(all.body.items.map((item: { id: string }) => [item.id, item]));
      expect(byId.get(streamed)).toMatchObject({ streamed: true, cache: null });
      expect(byId.get(miss)).toMatchObject({ streamed: false, cache: 'miss' });
      const bad = await t.http().get(base).query({ cache: 'stale' }).set(owner.auth).expect(400);
      expect(bad.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'cache', message: 'must be hit or miss' }] });
    } finally {
      await t.prisma.$executeRaw`DELETE FROM request_logs WHERE id = ANY(${[hit, miss, streamed]}::uuid[])`;
    }
  });

  it("lists the preview address's entries only under environment=preview, and live ones by default", async () => {
    const preview = [randomUUID(), randomUUID()];
    await t.prisma.$executeRaw`
      INSERT INTO request_logs (id, time, project_id, path, method, status, duration_ms, environment)
      VALUES (${preview[0]}::uuid, ${timeOf(2)}, ${projectId}::uuid, '/orders', 'GET', 200, 1, 'preview'),
             (${preview[1]}::uuid, ${timeOf(3)}, ${projectId}::uuid, '/orders', 'GET', 500, 1, 'preview')`;
    try {
      const live = await t.http().get(base).query({ limit: 200 }).set(owner.auth).expect(200);
      expect(ids(live.body.items)).toEqual(ids(newestFirst(rows)));
      const explicit = await t.http().get(base).query({ limit: 200, environment: 'live' }).set(owner.auth).expect(200);
      expect(ids(explicit.body.items)).toEqual(ids(newestFirst(rows)));
      const previewed = await t.http().get(base).query({ environment: 'preview' }).set(owner.auth).expect(200);
      expect(ids(previewed.body.items)).toEqual(preview);
      expect(previewed.body.items[0].environment).toBe('preview');
    } finally {
      await t.prisma.$executeRaw`DELETE FROM request_logs WHERE id = ANY(${preview}::uuid[])`;
    }
  });

  it('pages forward with next_cursor and back with prev_cursor over the same pages', async () => {
    const pages: string[][] = [];
    let response = await t.http().get(base).query({ limit: 7 }).set(owner.auth).expect(200);
    pages.push(ids(response.body.items));
    while (response.body.next_cursor) {
      response = await t.http().get(base).query({ limit: 7, cursor: response.body.next_cursor }).set(owner.auth).expect(200);
      pages.push(ids(response.body.items));
    }
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 2]);
    expect(pages.flat()).toEqual(ids(newestFirst(rows)));

    const back: string[][] = [];
    while (response.body.prev_cursor) {
      response = await t.http().get(base).query({ limit: 7, cursor: response.body.prev_cursor }).set(owner.auth).expect(200);
      back.push(ids(response.body.items));
    }
    expect(back).toEqual(pages.slice(0, -1).reverse());
    // Back on the first page leads Next to the second page again.
    const forward = await t.http().get(base).query({ limit: 7, cursor: response.body.next_cursor }).set(owner.auth).expect(200);
    expect(ids(forward.body.items)).toEqual(pages[1]);
  });

  it.each([
    [{ status: 500 }, (r: Row) => r.status === 500],
    // 200s are not in the status index (it holds the other rows): read along the primary key.
    [{ status: 200 }, (r: Row) => r.status === 200],
    [{ status: '2xx' }, (r: Row) => r.status >= 200 && r.status <= 299],
    [{ status: '5xx' }, (r: Row) => r.status >= 500 && r.status <= 599],
    [{ method: 'post' }, (r: Row) => r.method === 'POST'],
    [{ endpoint: '/orders' }, (r: Row) => r.path === '/orders' || r.path === '/api/orders'],
    [{ endpoint: '/api/orders' }, (r: Row) => r.path === '/api/orders'],
    [{ endpoint: 'users', status: 200, method: 'GET' }, (r: Row) => r.path === '/users' && r.status === 200 && r.method === 'GET'],
    [
      { from: timeOf(20).toISOString(), to: timeOf(5).toISOString() },
      (r: Row) => r.time.getTime() >= timeOf(20).getTime() && r.time.getTime() < timeOf(5).getTime(),
    ],
    [{ from: timeOf(12).toISOString() }, (r: Row) => r.time.getTime() >= timeOf(12).getTime()],
    [{ to: timeOf(25).toISOString() }, (r: Row) => r.time.getTime() < timeOf(25).getTime()],
    [{ status: '' }, () => true],
  ])('filters by %j', async (query, keep) => {
    const expected = ids(newestFirst(rows.filter(keep)));
    expect(expected.length).toBeGreaterThan(0);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response: { body: { items: Array<{ id: string }>; next_cursor: string | null } } = await t.http()
        .get(base)
        .query({ ...query, limit: 4, ...(cursor ? { cursor } : {}) })
        .set(owner.auth)
        .expect(200);
      seen.push(...ids(response.body.items));
      cursor = response.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 201 }, 'limit'],
    [{ status: 'abc' }, 'status'],
    [{ status: 99 }, 'status'],
    [{ method: 'G E T' }, 'method'],
    [{ from: 'yesterday' }, 'from'],
    [{ cursor: 'garbage' }, 'cursor'],
    [{ environment: 'staging' }, 'environment'],
  ])('refuses %j with 400 naming %s', async (query, path) => {
    const response = await t.http().get(base).query(query).set(owner.auth).expect(400);
    expect(response.body).toMatchObject({ success: false, code: 'invalid_request', details: [{ path, message: expect.any(String) }] });
  });

  it('accepts limit 200', async () => {
    const response = await t.http().get(base).query({ limit: 200 }).set(owner.auth).expect(200);
    expect(response.body.items).toHaveLength(30);
  });
});
