import { flowDocumentSchema } from '@flowgate/flow-engine';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { diagnosticSchema } from '../../endpoints/dto/endpoint.dto';

export const EMPTY_SCHEDULE_FLOW = { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] };

/** A schedule as the Workshop saves it. `enabled` is not versioned: it switches the live version on and off. */
export const scheduleInputSchema = z.object({
  name: z.string().trim().min(1).max(100).describe('Unique in the project; the Logs show runs under it'),
  cron: z.string().trim().min(1).max(100).describe('Five fields (minute resolution), or @hourly / @daily / @weekly / @monthly / @yearly'),
  timezone: z.string().trim().min(1).max(64).default('UTC').describe('IANA time zone name'),
  enabled: z.boolean().default(true).describe('Runs while deployed and enabled'),
  flow: flowDocumentSchema.default(EMPTY_SCHEDULE_FLOW),
});
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;
export class SaveScheduleDto extends createZodDto(scheduleInputSchema) {}

const contentSchema = z.object({
  name: z.string(),
  cron: z.string(),
  timezone: z.string(),
  flow: z.object({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) }).loose(),
});

export const scheduleSchema = contentSchema.extend({
  id: z.uuid(),
  project_id: z.uuid(),
  enabled: z.boolean(),
  status: z.enum(['draft', 'live']),
  live_version: z.number().int().nullable(),
  has_undeployed_changes: z.boolean(),
  next_runs: z.array(z.string()).describe('The next five runs of the live version (ISO 8601); empty when it does not run'),
  last_run: z.object({ time: z.string(), status: z.string(), duration_ms: z.number() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ScheduleView = z.infer<typeof scheduleSchema>;

export const scheduleVersionSchema = contentSchema.extend({ version: z.number().int(), live: z.boolean(), created_at: z.string() });
export type ScheduleVersionView = z.infer<typeof scheduleVersionSchema>;

export class ScheduleDto extends createZodDto(scheduleSchema) {}
export class ScheduleListDto extends createZodDto(z.object({ items: z.array(scheduleSchema) })) {}
export class ScheduleWithDiagnosticsDto extends createZodDto(scheduleSchema.extend({ diagnostics: z.array(diagnosticSchema) })) {}
export class ScheduleVersionListDto extends createZodDto(z.object({ items: z.array(scheduleVersionSchema) })) {}
export class ScheduleVersionDto extends createZodDto(scheduleVersionSchema) {}
export class RunAcceptedDto extends createZodDto(z.object({ success: z.literal(true), message: z.string(), job_id: z.string() })) {}
