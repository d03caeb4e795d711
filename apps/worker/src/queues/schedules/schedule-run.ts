import { createHash } from 'node:crypto';
import { type PublishedProject, type RequestLogEvent } from '@flowgate/contracts';
import { type FlowLimits, type FlowPorts, type FlowResult, type PreparedFlow, runFlow } from '@flowgate/flow-engine';

/** The tick a job stands for: a job scheduler's job id ends with its tick's epoch milliseconds; Run now is its own time. */
export function tickOf(jobId: string | undefined, fallback: Date): Date {
  const millis = Number(jobId?.split(':').at(-1));
  return Number.isSafeInteger(millis) && millis > 0 ? new Date(millis) : fallback;
}

/**
 * The id of a tick's log event, derived from the schedule and the job: a worker killed during
 * the run, whose job BullMQ runs again, sends the same id, and log-ingest stores it once.
 */
export function tickEventId(scheduleId: string, jobId: string): string {
  const hex = createHash('sha256').update(`${scheduleId}\n${jobId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface ScheduleRunInput {
  project: PublishedProject;
  schedule: { schedule_id: string; name: string };
  flow: PreparedFlow;
  ports: FlowPorts;
  tick: Date;
  limits: FlowLimits;
  timeoutMs: number;
}

/** Runs a schedule's flow with no request: `{schedule.name}`, `{schedule.time}`; under the flow limits and SCHEDULE_TIMEOUT_MS. */
export async function runSchedule(input: ScheduleRunInput): Promise<{ result: FlowResult; durationMs: number }> {
  const request = {
    method: 'SCHEDULE',
    path: input.schedule.name,
    query: new URLSearchParams(),
    body: null,
    headers: {},
    schedule: { name: input.schedule.name, time: input.tick.toISOString() },
  };
  const started = performance.now();
  const result = await runFlow(input.flow, request, input.ports, { timeoutMs: input.timeoutMs, limits: input.limits });
  return { result, durationMs: performance.now() - started };
}

/** The request-log event of a run (or of a tick skipped as `skipped_overlap`): `trigger: "schedule"`, method `SCHEDULE`. */
export function scheduleLogEvent(
  id: string,
  projectId: string,
  scheduleName: string,
  tick: Date,
  outcome: { status: number; code: string | null; message: string | null; errorNodeId: string | null; durationMs: number },
): RequestLogEvent {
  return {
    v: 1,
    id,
    project_id: projectId,
    endpoint_id: null,
    path: scheduleName.slice(0, 2048),
    method: 'SCHEDULE',
    status: outcome.status,
    code: outcome.code,
    duration_ms: Math.max(0, outcome.durationMs),
    key_id: null,
    query: '',
    message: outcome.message === null ? null : outcome.message.slice(0, 1024),
    error_node_id: outcome.errorNodeId,
    time: tick.toISOString(),
    environment: 'live',
    trigger: 'schedule',
    details: null,
  };
}
