/**
 * Schedules between the control plane and the worker: the control plane keeps one BullMQ job
 * scheduler per running schedule in this queue (`upsertJobScheduler`, id `schedule:<id>`); the
 * worker runs each tick's job. Run now adds a plain job to the same queue.
 */
export const SCHEDULES_QUEUE_NAME = 'flowgate-schedules';

export const scheduleSchedulerId = (scheduleId: string): string => `schedule:${scheduleId}`;

export interface ScheduleJobData {
  project_id: string;
  schedule_id: string;
  /** `tick` (a job scheduler's) or `run_now`. */
  kind: 'tick' | 'run_now';
}

/** Redis key held while one run of a schedule goes on (value: the job id): a tick finding it skips as `skipped_overlap`. */
export const scheduleRunningKey = (projectId: string, scheduleId: string): string => `fg:schedule-running:{${projectId}}:${scheduleId}`;
