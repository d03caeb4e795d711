import { foldRequestLogRollupDeltas } from '@flowgate/db';
import type { Logger } from '@flowgate/platform';
import type { Pool } from 'pg';

/**
 * Folds request_log_rollup_deltas into request_log_rollups every `intervalMs` (one statement;
 * replicas take turns on an advisory lock). The deltas are durable with the rows and readers
 * add those not folded yet, so a fold that fails or never runs (a crash) delays nothing a user
 * sees: the next one takes them.
 */
export class RollupFold {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.fold(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a fold in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private fold(): Promise<void> {
    if (this.running) return this.running;
    this.running = foldRequestLogRollupDeltas(this.pool)
      .then(
        (cells) => this.logger.debug({ cells }, 'folded rollup deltas'),
        (error) => this.logger.warn({ err: error }, 'folding the rollup deltas failed; the next fold takes them'),
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
