import {
  openSecrets,
  projectKey,
  type PublishedProject,
  SCHEDULES_QUEUE_NAME,
  scheduleRunningKey,
  type ScheduleJobData,
} from '@flowgate/contracts';
import { createDataPool, FairDataPool } from '@flowgate/data-tables';
import { type PreparedFlow, prepareFlow } from '@flowgate/flow-engine';
import { buildFlowPorts, createFlowPortsContext } from '@flowgate/integrations/flow-ports';
import { createRedisClient, dataConfigShape, dataDatabaseUrlOf, env, flowConfigShape, flowLimitsOf, loadConfig, SecretBox } from '@flowgate/platform';
import { Kafka, logLevel } from 'kafkajs';
import { z } from 'zod';
import type { QueueDefinition } from '../../queue-definition';
import { runSchedule, scheduleLogEvent, tickEventId, tickOf } from './schedule-run';

/** What the schedules queue alone reads (documented in the README's tables by `npm run docs:config`). */
export const schedulesConfigSchema = z.object({
  SCHEDULE_TIMEOUT_MS: env
    .positiveInt(60_000)
    .describe('deadline of one schedule run (instead of `FLOW_TIMEOUT_MS`); the worker also reads the `FLOW_*` limits, `FLOWGATE_ENCRYPTION_KEY`, `KAFKA_BROKERS`, `KAFKA_LOG_TOPIC`, `DATA_DATABASE_URL` and `GATEWAY_PUBLIC_URL` to run schedules as the gateway runs requests'),
  SCHEDULE_LOCK_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(1000, 'must be at least 1000 (ms)')
    .default(30_000)
    .describe("how long a schedule run's job lock lasts unrenewed: a run whose worker was killed is taken up by another worker after about twice this (at least 1000)"),
});

const schedulesEnv = schedulesConfigSchema.extend({
  REDIS_URL: env.redisUrl,
  REDIS_CLUSTER_NODES: env.redisClusterNodes,
  DATABASE_URL: env.databaseUrl,
  FLOWGATE_ENCRYPTION_KEY: z.string({ error: 'is required: the key that opens the published secrets' }).min(16),
  FLOWGATE_ENCRYPTION_KEY_PREVIOUS: z.string().optional(),
  KAFKA_BROKERS: z.string().default('127.0.0.1:9092'),
  KAFKA_LOG_TOPIC: z.string().default('flowgate.request-logs'),
  GATEWAY_PUBLIC_URL: z.string().default('http://{subdomain}.localhost:8080'),
  ...flowConfigShape,
  ...dataConfigShape,
});

/** Read before `setup` (the runtime needs it first): SCHEDULE_LOCK_MS, default 30 s (BullMQ's); a bad value fails `setup`. */
function lockDurationFromEnv(): number {
  const read = schedulesConfigSchema.shape.SCHEDULE_LOCK_MS.safeParse(process.env.SCHEDULE_LOCK_MS);
  return read.success ? read.data : 30_000;
}

/** How long the overlap marker outlives the deadline: a run killed with its worker frees its schedule after this. */
const RUNNING_MARGIN_MS = 5_000;

/**
 * Schedules' runs: one job per tick (the control plane keeps a BullMQ job scheduler per running
 * schedule; BullMQ hands each tick's job to one worker), plus Run now. The flow is the live
 * version published in the project's document, run with the project's ports, secrets and live
 * functions, under the flow limits with SCHEDULE_TIMEOUT_MS; every run is a request-log event
 * (`trigger: "schedule"`). A tick that finds the previous run still going is logged as
 * `skipped_overlap` and not run.
 */
export const queue: QueueDefinition<ScheduleJobData> = {
  name: SCHEDULES_QUEUE_NAME,
  // A failed flow is a logged run, not a failed job; a job fails only when the run could not be recorded.
  attempts: 3,
  backoffMs: 1000,
  concurrency: 8,
  // A tick whose worker was killed mid-run is taken up by another worker within about twice this.
  lockDurationMs: lockDurationFromEnv(),
  setup(context) {
    const config = loadConfig(schedulesEnv, context.env);
    const target = { url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES };
    const redis = createRedisClient(target, { node: { connectionName: 'flowgate-worker-schedules', maxRetriesPerRequest: 3 } });
    redis.on('error', (error) => context.logger.debug({ err: error }, 'schedules redis connection error'));
    const secrets = new SecretBox(config.FLOWGATE_ENCRYPTION_KEY, [config.FLOWGATE_ENCRYPTION_KEY_PREVIOUS]);
    // Schedules of every project share two connections, each project at most one (FairDataPool).
    const data = new FairDataPool(createDataPool({ url: dataDatabaseUrlOf(config), max: 2, applicationName: 'flowgate-worker-schedules' }), 2);
    const ports = createFlowPortsContext({
      settings: {
        publicUrlTemplate: config.GATEWAY_PUBLIC_URL,
        redisTarget: target,
        workerThreads: 1,
        workerQueue: config.FLOW_WORKER_QUEUE,
        workerTaskMs: config.FLOW_WORKER_TASK_MS,
        codeMemoryMb: config.CODE_MEMORY_MB,
      },
      redis,
      secrets,
      logger: context.logger,
      data: () => data,
    });
    const limits = flowLimitsOf(config);
    const kafka = new Kafka({ clientId: 'flowgate-worker-schedules', brokers: config.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    // Connected on first use, again after a failure (a job that cannot be logged fails and is retried).
    let connected: Promise<void> | null = null;
    const connect = () =>
      (connected ??= producer.connect().catch((error: unknown) => {
        connected = null;
        throw error;
      }));
    const prepared = new Map<string, { key: string; flow: PreparedFlow }>();
    const preparedOnce = (id: string, version: number, compiled: unknown): PreparedFlow => {
      const key = `${id}@${version}`;
      const known = prepared.get(id);
      if (known?.key === key) return known.flow;
      const flow = prepareFlow(compiled as Parameters<typeof prepareFlow>[0]);
      prepared.set(id, { key, flow });
      return flow;
    };

    const record = async (event: ReturnType<typeof scheduleLogEvent>) => {
      await connect();
      await producer.send({ topic: config.KAFKA_LOG_TOPIC, acks: -1, messages: [{ key: event.project_id, value: JSON.stringify(event) }] });
    };

    return {
      async process(job) {
        const { project_id: projectId, schedule_id: scheduleId } = job.data;
        const raw = await redis.get(projectKey(projectId));
        const project = raw === null ? null : (JSON.parse(raw) as PublishedProject);
        const schedule = project?.schedules?.find((candidate) => candidate.schedule_id === scheduleId);
        if (!project || !schedule) {
          context.logger.info({ project_id: projectId, schedule_id: scheduleId }, 'schedule not live any more; tick ignored');
          return;
        }
        const jobId = job.id ?? `${scheduleId}:${Date.now()}`;
        const tick = tickOf(job.data.kind === 'tick' ? job.id : undefined, new Date(job.timestamp));
        const eventId = tickEventId(scheduleId, jobId);
        const running = scheduleRunningKey(projectId, scheduleId);
        const taken = await redis.set(running, jobId, 'PX', config.SCHEDULE_TIMEOUT_MS + RUNNING_MARGIN_MS, 'NX');
        // The same job again (its worker was killed mid-run): it goes on under its own marker.
        if (taken === null && (await redis.get(running)) !== jobId) {
          await record(scheduleLogEvent(eventId, projectId, schedule.name, tick, { status: 409, code: 'skipped_overlap', message: 'The previous run of this schedule was still going; this tick was skipped', errorNodeId: null, durationMs: 0 }));
          return;
        }
        try {
          const opened = openSecrets(project.secrets, (sealed) => secrets.open(sealed)?.plaintext ?? null);
          const functions = new Map((project.functions ?? []).map((fn) => [fn.function_id, preparedOnce(fn.function_id, fn.version, fn.compiled)]));
          const flowPorts = { ...buildFlowPorts(project, ports.deps), secrets: opened.live, functions };
          const { result, durationMs } = await runSchedule({ project, schedule, flow: preparedOnce(scheduleId, schedule.version, schedule.compiled), ports: flowPorts, tick, limits, timeoutMs: config.SCHEDULE_TIMEOUT_MS });
          const failed = result.type === 'error';
          const message = failed ? (opened.masker === null ? result.message : opened.masker.text(result.message)) : null;
          await record(scheduleLogEvent(eventId, projectId, schedule.name, tick, { status: result.status, code: failed ? result.code : null, message, errorNodeId: failed ? result.node_id : null, durationMs }));
          await context
            .database()
            .query('UPDATE schedules SET last_run_at = $2, last_run_status = $3, last_run_ms = $4 WHERE id = $1', [scheduleId, tick, failed ? result.code : 'ok', Math.round(durationMs)]);
        } finally {
          // Only this job's marker: a later tick's is left alone.
          if ((await redis.get(running)) === jobId) await redis.del(running);
        }
      },
      async close() {
        await producer.disconnect().catch(() => undefined);
        await ports.close();
        await data.pool.end();
        redis.disconnect();
      },
    };
  },
};
