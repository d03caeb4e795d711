import type { FlowDocument } from '@flowgate/flow-engine';
import { invalidRequest } from '../common/app-error';
import { canonicalJson } from '../common/canonical-json';
import type { ScheduleInput, ScheduleVersionView, ScheduleView } from './dto/schedule.dto';
import { cronProblem, nextRuns } from '@flowgate/contracts';
import type { ScheduleContent, ScheduleRecord, ScheduleVersionRecord } from './schedules.repository';

/** What a Save stores and a Deploy freezes; 400 naming `cron` or `timezone` when the clock is not valid. */
export function scheduleContentOf(input: ScheduleInput, minIntervalS: number): ScheduleContent {
  const problem = cronProblem(input.cron, input.timezone, minIntervalS);
  if (problem) throw invalidRequest(`The schedule's ${problem.field} ${problem.message}`, [{ path: problem.field, message: problem.message }]);
  return { name: input.name, cron: input.cron.trim(), timezone: input.timezone, flow: input.flow };
}

export const scheduleFlowOf = (content: ScheduleContent): FlowDocument => content.flow as FlowDocument;

export function sameScheduleContent(a: ScheduleContent, b: ScheduleContent): boolean {
  const pick = (c: ScheduleContent) => canonicalJson([c.name, c.cron, c.timezone, c.flow]);
  return pick(a) === pick(b);
}

const contentView = (content: ScheduleContent) => ({ name: content.name, cron: content.cron, timezone: content.timezone, flow: content.flow as ScheduleView['flow'] });

/** `live`: the live version (its clock gives `next_runs`), null when not deployed. */
export function toScheduleView(record: ScheduleRecord, live: ScheduleContent | null, now: Date): ScheduleView {
  const runs = live !== null && record.enabled ? nextRuns(live.cron, live.timezone, now, 5).map((date) => date.toISOString()) : [];
  return {
    id: record.id,
    project_id: record.projectId,
    ...contentView(record),
    enabled: record.enabled,
    status: record.liveVersion === null ? 'draft' : 'live',
    live_version: record.liveVersion,
    has_undeployed_changes: record.liveVersion === null || record.draftChangedAt !== null,
    next_runs: runs,
    last_run: record.lastRunAt === null ? null : { time: record.lastRunAt.toISOString(), status: record.lastRunStatus ?? 'unknown', duration_ms: record.lastRunMs ?? 0 },
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

export function toScheduleVersionView(version: ScheduleVersionRecord, liveVersion: number | null): ScheduleVersionView {
  return { version: version.version, ...contentView(version), live: version.version === liveVersion, created_at: version.createdAt.toISOString() };
}
