import { Injectable } from '@nestjs/common';
import { addLatencyHistogram, latencyPercentiles } from '@flowgate/db';
import { invalidRequest } from '../common/app-error';
import { Clock } from '../infrastructure/clock';
import { ProjectsService } from '../projects/projects.service';
import type { LogStats, LogStatsQuery } from './dto/log-stats.dto';
import { bucketCount, statsRange } from './log-stats-range';
import { type ExactSlotRow, LogStatsRepository, type RollupSlotRow } from './log-stats.repository';
import { pathsFor } from './logs.service';

type Figures = LogStats['totals'];
const EMPTY: Figures = { count: 0, errors: 0, p50_ms: null, p95_ms: null, p99_ms: null };
const PERCENTILES = [0.5, 0.95, 0.99];
const round3 = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);

interface Accumulator {
  count: number;
  errors: number;
  histogram: Map<number, number>;
}

function figuresOf(acc: Accumulator): Figures {
  const [p50, p95, p99] = latencyPercentiles(acc.histogram, PERCENTILES);
  return { count: acc.count, errors: acc.errors, p50_ms: p50!, p95_ms: p95!, p99_ms: p99! };
}

@Injectable()
export class LogStatsService {
  constructor(
    private readonly repository: LogStatsRepository,
    private readonly projects: ProjectsService,
    private readonly clock: Clock,
  ) {}

  /** Totals and buckets of the project's requests (docs/control-plane.md "Logs API"). */
  async stats(accountId: string, projectId: string, query: LogStatsQuery): Promise<LogStats> {
    await this.projects.requireOwned(accountId, projectId);
    const range = statsRange(query, this.clock.now().getTime());
    if ('path' in range) throw invalidRequest('The request is not valid', [range]);
    const filter = { projectId, environment: query.environment, status: query.status, method: query.method, paths: query.endpoint === undefined ? undefined : pathsFor(query.endpoint) };
    const { totals, slots } = filter.paths ? this.exact(await this.repository.fromRows(filter, range)) : this.fromRollups(await this.repository.fromRollups(filter, range));
    const width = range.intervalS * 1000;
    const first = Math.floor(range.fromMs / width);
    const buckets = Array.from({ length: bucketCount(range.fromMs, range.toMs, range.intervalS) }, (_, i) => ({
      time: new Date((first + i) * width).toISOString(),
      ...(slots.get(first + i) ?? EMPTY),
    }));
    return { from: new Date(range.fromMs).toISOString(), to: new Date(range.toMs).toISOString(), interval: range.intervalS, totals, buckets };
  }

  private fromRollups(rows: RollupSlotRow[]): { totals: Figures; slots: Map<number, Figures> } {
    const total: Accumulator = { count: 0, errors: 0, histogram: new Map() };
    const perSlot = new Map<number, Accumulator>();
    for (const row of rows) {
      let acc = perSlot.get(row.slot);
      if (acc === undefined) perSlot.set(row.slot, (acc = { count: 0, errors: 0, histogram: new Map() }));
      for (const target of [acc, total]) {
        target.count += row.count;
        target.errors += row.errors;
        addLatencyHistogram(target.histogram, row.latency_histogram);
      }
    }
    return { totals: figuresOf(total), slots: new Map([...perSlot].map(([slot, acc]) => [slot, figuresOf(acc)])) };
  }

  private exact(rows: ExactSlotRow[]): { totals: Figures; slots: Map<number, Figures> } {
    const figures = (row: ExactSlotRow): Figures => ({
      count: row.count,
      errors: row.errors,
      p50_ms: round3(row.p50_ms),
      p95_ms: round3(row.p95_ms),
      p99_ms: round3(row.p99_ms),
    });
    const totals = rows.find((row) => row.slot === null);
    return {
      totals: totals && totals.count > 0 ? figures(totals) : EMPTY,
      slots: new Map(rows.filter((row) => row.slot !== null).map((row) => [row.slot!, figures(row)])),
    };
  }
}
