import { latencyBucketOf } from '@flowgate/db';
import type { Clock } from '../infrastructure/clock';
import { appErrorOf, fakeProjects, fakeWorld } from '../testing/fake-services';
import type { ExactSlotRow, LogStatsRepository, RollupSlotRow, StatsFilter } from './log-stats.repository';
import { LogStatsService } from './log-stats.service';

// The service with a fake repository (no PostgreSQL): how rollup rows become totals and buckets,
// when the exact rows are read instead, and what a bad range answers. log-stats.int.spec.ts runs
// the same API on stored request logs.

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const HOUR = 3_600_000;
/** The default bucket of a day: 15 minutes. */
const QUARTER = 900_000;

/** A rollup histogram of `ms` latencies (bucket → count), as log-ingest writes them. */
const histogram = (...ms: number[]) => ms.reduce<Record<string, number>>((into, value) => ({ ...into, [latencyBucketOf(value)]: (into[latencyBucketOf(value)] ?? 0) + 1 }), {});

class FakeStats {
  rollups: RollupSlotRow[] = [];
  exact: ExactSlotRow[] = [];
  readonly asked: Array<{ source: 'rollups' | 'rows'; filter: StatsFilter }> = [];
  async fromRollups(filter: StatsFilter) {
    this.asked.push({ source: 'rollups', filter });
    return this.rollups;
  }
  async fromRows(filter: StatsFilter) {
    this.asked.push({ source: 'rows', filter });
    return this.exact;
  }
}

function setUp() {
  const world = fakeWorld();
  const stats = new FakeStats();
  const clock = { now: () => new Date(NOW) } as Clock;
  const service = new LogStatsService(stats as unknown as LogStatsRepository, fakeProjects(world), clock);
  return { service, stats, world, owner: world.owner, project: world.project.id };
}

describe('LogStatsService (fake repository)', () => {
  it('adds the rollups up into totals and 15-minute buckets over the last 24 hours by default', async () => {
    const { service, stats, owner, project } = setUp();
    const lastSlot = NOW / QUARTER - 1;
    stats.rollups = [
      { slot: lastSlot, count: 3, errors: 1, latency_histogram: histogram(10, 10, 10) },
      { slot: lastSlot, count: 1, errors: 0, latency_histogram: histogram(10) },
      { slot: lastSlot - 5, count: 2, errors: 2, latency_histogram: histogram(100, 100) },
    ];
    const result = await service.stats(owner, project, {});

    expect(result.from).toBe(new Date(NOW - 24 * HOUR).toISOString());
    expect(result.to).toBe(new Date(NOW).toISOString());
    expect(result.interval).toBe(900);
    expect(result.buckets).toHaveLength(96);
    expect(result.totals).toMatchObject({ count: 6, errors: 3 });
    expect(result.totals.p50_ms).toBeCloseTo(10, 0);
    expect(result.totals.p99_ms).toBeCloseTo(100, -1);
    expect(result.buckets.at(-1)).toMatchObject({ time: new Date(lastSlot * QUARTER).toISOString(), count: 4, errors: 1 });
    expect(result.buckets.at(-6)).toMatchObject({ count: 2, errors: 2 });
    expect(result.buckets[0]).toEqual({ time: result.from, count: 0, errors: 0, p50_ms: null, p95_ms: null, p99_ms: null });
    expect(stats.asked).toEqual([{ source: 'rollups', filter: expect.objectContaining({ projectId: project, paths: undefined }) }]);
  });

  it('reads the rows themselves for one endpoint (rollups have no per-endpoint figures), /x meaning /x and /api/x', async () => {
    const { service, stats, owner, project } = setUp();
    stats.exact = [
      { slot: null, count: 2, errors: 0, p50_ms: 1.23456, p95_ms: 2, p99_ms: 2 },
      { slot: NOW / QUARTER - 1, count: 2, errors: 0, p50_ms: 1.23456, p95_ms: 2, p99_ms: 2 },
    ];
    const result = await service.stats(owner, project, { endpoint: '/orders' });

    expect(stats.asked).toEqual([{ source: 'rows', filter: expect.objectContaining({ paths: ['/orders', '/api/orders'] }) }]);
    expect(result.totals).toEqual({ count: 2, errors: 0, p50_ms: 1.235, p95_ms: 2, p99_ms: 2 });
    expect(result.buckets.at(-1)).toMatchObject({ count: 2, p50_ms: 1.235 });
  });

  it('refuses a range that ends before it starts, naming the field, without reading anything', async () => {
    const { service, stats, owner, project } = setUp();
    const error = await appErrorOf(service.stats(owner, project, { from: '2026-11-20T12:00:00Z', to: '2026-11-20T11:00:00Z' }));
    expect(error.code).toBe('invalid_request');
    expect(error.details).toEqual([{ path: 'from', message: 'must be before to' }]);
    expect(stats.asked).toEqual([]);
  });

  it("treats another account's project as unknown", async () => {
    const { service, stats, world, project } = setUp();
    expect((await appErrorOf(service.stats(world.stranger, project, {}))).code).toBe('project_not_found');
    expect(stats.asked).toEqual([]);
  });
});
