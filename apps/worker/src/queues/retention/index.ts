import { maintainRequestLogPartitions } from '@flowgate/db';
import { loadConfig } from '@flowgate/platform';
import { z } from 'zod';
import type { QueueDefinition } from '../../queue-definition';

export const RETENTION_QUEUE = 'flowgate-retention';

const days = (fallback: number) =>
  z.coerce.number({ error: 'must be a number of days' }).int('must be a whole number of days').min(1, 'must be at least 1 day').default(fallback);

export const retentionConfigSchema = z.object({
  LOG_RETENTION_DAYS: days(30).describe('days of request logs kept (older daily partitions are dropped)'),
  LOG_PARTITIONS_AHEAD_DAYS: days(7).describe('daily partitions created ahead of today'),
});

export interface RetentionResult {
  created: string[];
  dropped: string[];
  /** Rollup rows and unfolded rollup deltas of the dropped days (their statistics go with them). */
  rollupsDeleted: number;
}

/**
 * Keeps request_logs' daily partitions: creates the coming days' ahead of time and drops
 * those older than the retention period. Daily shortly after midnight UTC, and once at
 * start so a worker that was down catches up. Safe on several replicas (the SQL functions
 * serialise on an advisory lock and are idempotent).
 */
export const queue: QueueDefinition<Record<string, never>, RetentionResult> = {
  name: RETENTION_QUEUE,
  attempts: 5,
  backoffMs: 30_000,
  schedule: { jobName: 'maintain-request-log-partitions', pattern: '5 0 * * *', data: {}, runAtStart: true },
  setup(context) {
    const config = loadConfig(retentionConfigSchema, context.env);
    return {
      async process() {
        const result = await maintainRequestLogPartitions(context.database(), {
          today: context.now(),
          retentionDays: config.LOG_RETENTION_DAYS,
          daysAhead: config.LOG_PARTITIONS_AHEAD_DAYS,
        });
        context.logger.info({ ...result, retention_days: config.LOG_RETENTION_DAYS }, 'request_logs partitions maintained');
        return result;
      },
    };
  },
};
