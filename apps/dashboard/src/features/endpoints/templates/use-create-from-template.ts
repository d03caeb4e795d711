import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../../api/api-error';
import { api } from '../../../api/client';
import { queryKeys } from '../../../api/query-keys';
import type { Endpoint } from '../../../api/types';
import { localTimeZone } from '../../schedules/cron-reading';
import type { FlowTemplate } from './flow-template';

/** `path` when no endpoint answers `method path` yet, else path-2, path-3, … */
export function freeTemplatePath(method: string, path: string, taken: ReadonlyArray<Pick<Endpoint, 'method' | 'path'>>): string {
  const used = new Set(taken.filter((endpoint) => endpoint.method === method).map((endpoint) => endpoint.path.toLowerCase()));
  if (!used.has(path.toLowerCase())) return path;
  for (let n = 2; ; n++) if (!used.has(`${path}-${n}`.toLowerCase())) return `${path}-${n}`;
}

/** `name` when no schedule has it yet, else "name 2", "name 3", … */
export function freeScheduleName(name: string, taken: ReadonlyArray<{ name: string }>): string {
  const used = new Set(taken.map((schedule) => schedule.name.toLowerCase()));
  if (!used.has(name.toLowerCase())) return name;
  for (let n = 2; ; n++) if (!used.has(`${name} ${n}`.toLowerCase())) return `${name} ${n}`;
}

/** What a template made first, which its Workshop opens on. */
export interface CreatedFromTemplate {
  kind: 'endpoints' | 'schedules';
  id: string;
}

/**
 * Makes a template's tables (a table of that name already there is used as it is), its endpoints
 * as drafts at free paths and its schedules as drafts under free names (on the browser's time
 * zone); resolves to the first thing made.
 */
export function useCreateFromTemplate(projectId: string, existing: ReadonlyArray<Pick<Endpoint, 'method' | 'path'>>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (template: FlowTemplate): Promise<CreatedFromTemplate> => {
      for (const table of template.tables ?? []) {
        await api('POST /v1/projects/{projectId}/tables', { params: { projectId }, body: table }).catch((error: unknown) => {
          if (!isApiError(error) || error.status !== 409) throw error;
        });
      }
      const created: CreatedFromTemplate[] = [];
      const taken = [...existing];
      for (const input of template.endpoints) {
        const path = freeTemplatePath(input.method ?? 'GET', input.path, taken);
        const endpoint = await api('POST /v1/projects/{projectId}/endpoints', { params: { projectId }, body: { ...input, path } });
        taken.push(endpoint);
        created.push({ kind: 'endpoints', id: endpoint.id });
      }
      if (template.schedules?.length) {
        const names: Array<{ name: string }> = (await api('GET /v1/projects/{projectId}/schedules', { params: { projectId } })).items;
        for (const input of template.schedules) {
          const schedule = await api('POST /v1/projects/{projectId}/schedules', { params: { projectId }, body: { ...input, name: freeScheduleName(input.name, names), timezone: localTimeZone() } });
          names.push(schedule);
          created.push({ kind: 'schedules', id: schedule.id });
        }
      }
      return created[0]!;
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.endpoints(projectId) });
      void client.invalidateQueries({ queryKey: queryKeys.schedules(projectId) });
      void client.invalidateQueries({ queryKey: queryKeys.tables(projectId) });
    },
  });
}
