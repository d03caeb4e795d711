import type { Schedule } from '../../../api/types';
import { withStart } from './endpoint-doc';
import { settingsOf, type WorkshopDoc } from './workshop-document';

/** The editor's document from a schedule as the API returns it; a version has no `enabled` (it is not versioned). */
export function docFromSchedule(schedule: Pick<Schedule, 'name' | 'cron' | 'timezone' | 'flow'> & { enabled?: boolean }): WorkshopDoc {
  return {
    ...withStart(schedule.flow),
    settings: { kind: 'schedule', name: schedule.name, cron: schedule.cron, timezone: schedule.timezone, enabled: schedule.enabled ?? false },
  };
}

/** What Save sends (`PUT …/schedules/:id`). */
export function scheduleSaveBody(doc: WorkshopDoc) {
  const { kind: _kind, ...settings } = settingsOf(doc, 'schedule');
  return { ...settings, flow: { nodes: doc.nodes, edges: doc.edges } };
}
