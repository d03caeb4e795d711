import { randomUUID } from 'node:crypto';
import { appErrorOf, fakeProjects, fakeWorld } from '../testing/fake-services';
import type { LogDetailRow, LogFilter, LogPosition, LogsRepository } from './logs.repository';
import { LogsService } from './logs.service';

// The service with a fake repository (no PostgreSQL): pages newest first, Next and Back cursors,
// the endpoint filter, errors. logs.int.spec.ts runs the same API on real partitions.

/** Orders (time, id) as the real keyset does. */
const after = (a: LogPosition, b: LogPosition) => a.time.getTime() - b.time.getTime() || a.id.localeCompare(b.id);

class FakeLogs {
  readonly rows: LogDetailRow[] = [];
  filters: LogFilter[] = [];
  async page(filter: LogFilter, order: 'older' | 'newer', limit: number, from?: LogPosition) {
    this.filters.push(filter);
    const matching = this.rows.filter((row) => !filter.paths || filter.paths.includes(row.path));
    const sorted = matching.sort((a, b) => (order === 'older' ? after(b, a) : after(a, b)));
    return sorted.filter((row) => !from || (order === 'older' ? after(row, from) < 0 : after(row, from) > 0)).slice(0, limit);
  }
  async findOne(_projectId: string, id: string) {
    return this.rows.find((row) => row.id === id) ?? null;
  }
}

function setUp(count: number, path = (i: number) => `/orders/${i}`) {
  const world = fakeWorld();
  const logs = new FakeLogs();
  for (let i = 0; i < count; i++) {
    logs.rows.push({
      id: randomUUID(),
      time: new Date(Date.UTC(2026, 10, 20, 10, 0, i)),
      path: path(i),
      method: 'GET',
      status: 200,
      code: null,
      duration_ms: 3,
      key_id: null,
      environment: 'live',
      trigger: 'http',
      streamed: false,
      cache: null,
      details: null,
      endpoint_id: null,
      query: '',
      message: null,
      error_node_id: null,
      key_name: null,
    });
  }
  const service = new LogsService(logs as unknown as LogsRepository, fakeProjects(world));
  return { service, logs, world, owner: world.owner, project: world.project.id };
}

const seconds = (page: { items: Array<{ time: string }> }) => page.items.map((item) => new Date(item.time).getUTCSeconds());

describe('LogsService (fake repository)', () => {
  it('pages newest first; Next goes to older entries and Back returns to the newer ones', async () => {
    const { service, owner, project } = setUp(5);
    const first = await service.page(owner, project, { limit: 2 });
    expect(seconds(first)).toEqual([4, 3]);
    expect(first.prev_cursor).toBeNull();

    const second = await service.page(owner, project, { limit: 2, cursor: first.next_cursor! });
    expect(seconds(second)).toEqual([2, 1]);
    const last = await service.page(owner, project, { limit: 2, cursor: second.next_cursor! });
    expect(seconds(last)).toEqual([0]);
    expect(last.next_cursor).toBeNull();

    const back = await service.page(owner, project, { limit: 2, cursor: second.prev_cursor! });
    expect(seconds(back)).toEqual([4, 3]);
    expect(back.prev_cursor).toBeNull();
    expect(seconds(await service.page(owner, project, { limit: 2, cursor: back.next_cursor! }))).toEqual([2, 1]);
  });

  it('refuses a cursor this API did not issue, naming the field', async () => {
    const { service, owner, project } = setUp(1);
    const error = await appErrorOf(service.page(owner, project, { cursor: 'not-a-cursor' }));
    expect(error.code).toBe('invalid_request');
    expect(error.details).toEqual([{ path: 'cursor', message: 'is not a cursor of this API' }]);
  });

  it('filters by endpoint: /orders matches the requests to /orders and /api/orders', async () => {
    const { service, logs, owner, project } = setUp(3, (i) => ['/orders', '/api/orders', '/users'][i]!);
    const page = await service.page(owner, project, { endpoint: 'orders' });

    expect(page.items.map((item) => item.endpoint).sort()).toEqual(['/api/orders', '/orders']);
    expect(logs.filters.at(-1)).toMatchObject({ projectId: project, paths: ['/orders', '/api/orders'] });
  });

  it('shows one entry with its details, and not_found for an unknown one', async () => {
    const { service, logs, owner, project } = setUp(1);
    const row = logs.rows[0]!;
    expect(await service.detail(owner, project, row.id)).toMatchObject({ id: row.id, endpoint: row.path, query: '', key_name: null });
    expect((await appErrorOf(service.detail(owner, project, randomUUID()))).code).toBe('not_found');
  });

  it("treats another account's project as unknown", async () => {
    const { service, logs, world, project } = setUp(1);
    expect((await appErrorOf(service.page(world.stranger, project, {}))).code).toBe('project_not_found');
    expect((await appErrorOf(service.detail(world.stranger, project, logs.rows[0]!.id))).code).toBe('project_not_found');
  });
});
