import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { SCHEDULES_QUEUE_NAME, type ScheduleJobData, scheduleSchedulerId } from '@flowgate/contracts';
import { bullmqPrefix, createRedisClient, type RedisClient } from '@flowgate/platform';
import { type ConnectionOptions, Queue } from 'bullmq';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';

/**
 * The schedules' ticks, kept by BullMQ job schedulers in the worker's queue: one scheduler per
 * running schedule, upserted on Deploy and enable, removed on undeploy, disable and delete —
 * before the answer. BullMQ makes one job per tick whatever the number of workers.
 */
@Injectable()
export class ScheduleClock implements OnModuleDestroy {
  private readonly queue: Queue<ScheduleJobData>;
  private readonly cluster: RedisClient | null;
  private readonly everyMs: number;

  constructor(@Inject(CONFIG) config: ControlPlaneConfig) {
    const target = { url: config.redisUrl, clusterNodes: config.redisClusterNodes };
    // Connections of its own, as the worker opens them: BullMQ needs maxRetriesPerRequest null.
    this.cluster = target.clusterNodes ? createRedisClient(target, { node: { maxRetriesPerRequest: null } }) : null;
    const connection: ConnectionOptions = this.cluster ?? { url: config.redisUrl, maxRetriesPerRequest: null };
    this.queue = new Queue(SCHEDULES_QUEUE_NAME, { connection, prefix: bullmqPrefix(config.bullmqPrefix, target) });
    this.everyMs = config.scheduleTickEveryMs;
  }

  async start(projectId: string, scheduleId: string, cron: string, timezone: string): Promise<void> {
    const data: ScheduleJobData = { project_id: projectId, schedule_id: scheduleId, kind: 'tick' };
    const repeat = this.everyMs > 0 ? { every: this.everyMs } : { pattern: cron.trim(), tz: timezone };
    await this.queue.upsertJobScheduler(scheduleSchedulerId(scheduleId), repeat, { name: 'tick', data, opts: { removeOnComplete: 100, removeOnFail: 100 } });
  }

  async stop(scheduleId: string): Promise<void> {
    await this.queue.removeJobScheduler(scheduleSchedulerId(scheduleId));
  }

  /** Whether a scheduler is kept for it (what is running, as BullMQ sees it). */
  async running(scheduleId: string): Promise<boolean> {
    return (await this.queue.getJobScheduler(scheduleSchedulerId(scheduleId))) !== undefined;
  }

  async runNow(projectId: string, scheduleId: string): Promise<string> {
    const job = await this.queue.add('run_now', { project_id: projectId, schedule_id: scheduleId, kind: 'run_now' }, { removeOnComplete: 100, removeOnFail: 100 });
    return job.id ?? '';
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close();
    this.cluster?.disconnect();
  }
}
