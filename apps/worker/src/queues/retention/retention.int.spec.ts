import { randomUUID } from 'node:crypto';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@flowgate/testing';
import { addDays, ensureRequestLogPartitions, migrate, requestLogPartitionName, toUtcDay } from '@flowgate/db';
import { createLogger } from '@flowgate/platform';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { createWorkerRuntime, type WorkerRuntime } from '../../worker-runtime';
import { queue as retentionQueue, RETENTION_QUEUE } from '.';
import { setTimeout as sleep } from 'node:timers/promises';

jest.setTimeout(60000);

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('retention queue (flowgate-retention)', () => {
  const prefix = `fgtest-${randomUUID().slice(0, 8)}`;
  const today = toUtcDay(new Date());
  let database: ThrowawayDatabase;
  let pool: Pool;
  let runtime: WorkerRuntime;

  const partitions = async (): Promise<string[]> =>
    (
      await pool.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'request_logs'::regclass ORDER BY 1`,
      )
    ).rows.map((r) => r.name);

  beforeAll(async () => {
    // Its own database: the job drops partitions, which must not touch other tests' rows.
    database = await createThrowawayDatabase('flowgate_retention');
    await migrate(database.url, { quiet: true });
    pool = new Pool({ connectionString: database.url, max: 2 });
    await ensureRequestLogPartitions(pool, addDays(today, -40), 1);
    await ensureRequestLogPartitions(pool, addDays(today, -30), 2); // -30 and -29
    for (const day of [-40, -30, -29]) {
      await pool.query(
        `INSERT INTO request_logs (id, time, project_id, path, method, status, duration_ms) VALUES ($1, $2, $3, '/x', 'GET', 200, 1)`,
        [randomUUID(), `${addDays(today, day)}T12:00:00Z`, randomUUID()],
      );
    }
  });

  afterAll(async () => {
    await runtime?.stop();
    await pool?.end();
    await database?.drop();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('runs at start: drops partitions older than LOG_RETENTION_DAYS and creates the days ahead', async () => {
    runtime = createWorkerRuntime({
      definitions: [retentionQueue],
      redisUrl,
      databaseUrl: database.url,
      prefix,
      logger: createLogger('worker-test', 'silent'),
      env: { LOG_RETENTION_DAYS: '30', LOG_PARTITIONS_AHEAD_DAYS: '10' },
    });
    await runtime.start();

    const queue = runtime.queue(RETENTION_QUEUE);
    const deadline = Date.now() + 30000;
    while ((await queue.getCompletedCount()) === 0) {
      if (Date.now() > deadline) throw new Error(`the start-up retention job did not complete: ${JSON.stringify(await queue.getJobCounts())}`);
      await sleep(100);
    }
    const [job] = await queue.getCompleted();
    expect(job.returnvalue.dropped).toEqual([requestLogPartitionName(addDays(today, -40)), requestLogPartitionName(addDays(today, -30))]);

    const names = await partitions();
    expect(names).not.toContain(requestLogPartitionName(addDays(today, -40)));
    expect(names).not.toContain(requestLogPartitionName(addDays(today, -30)));
    expect(names).toContain(requestLogPartitionName(addDays(today, -29)));
    for (let day = 0; day <= 10; day += 1) expect(names).toContain(requestLogPartitionName(addDays(today, day)));
    expect(names).not.toContain(requestLogPartitionName(addDays(today, 11)));
    expect(job.returnvalue.created).toContain(requestLogPartitionName(addDays(today, 10)));

    const { rows } = await pool.query<{ day: string }>(`SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM request_logs`);
    expect(rows.map((r) => r.day)).toEqual([addDays(today, -29)]);

    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ pattern: '5 0 * * *', tz: 'UTC' });
  });
});
