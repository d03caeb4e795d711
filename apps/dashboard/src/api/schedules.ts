import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';
import type { SaveScheduleDto } from './generated/openapi';
import type { Schedule } from './types';

export function useSchedules(projectId: string) {
  return useQuery({
    queryKey: queryKeys.schedules(projectId),
    queryFn: async () => (await api('GET /v1/projects/{projectId}/schedules', { params: { projectId } })).items,
  });
}

export function useSchedule(projectId: string, scheduleId: string) {
  return useQuery({
    queryKey: queryKeys.schedule(projectId, scheduleId),
    queryFn: () => api('GET /v1/projects/{projectId}/schedules/{scheduleId}', { params: { projectId, scheduleId } }),
  });
}

export function useCreateSchedule(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveScheduleDto) => api('POST /v1/projects/{projectId}/schedules', { params: { projectId }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.schedules(projectId) }),
  });
}

export function useDeleteSchedule(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (scheduleId: string) => api('DELETE /v1/projects/{projectId}/schedules/{scheduleId}', { params: { projectId, scheduleId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.schedules(projectId) }),
  });
}

/**
 * The list's switch: `enabled` is not versioned, so it is saved with the schedule's stored draft
 * as it is (the live version starts or stops at once). The row shows the new state at once and
 * goes back to what the server holds when the save fails.
 */
export function useSetScheduleEnabled(projectId: string) {
  const client = useQueryClient();
  const listKey = queryKeys.schedules(projectId);
  return useMutation({
    mutationFn: ({ schedule, enabled }: { schedule: Schedule; enabled: boolean }) =>
      api('PUT /v1/projects/{projectId}/schedules/{scheduleId}', {
        params: { projectId, scheduleId: schedule.id },
        body: { name: schedule.name, cron: schedule.cron, timezone: schedule.timezone, enabled, flow: schedule.flow as SaveScheduleDto['flow'] },
      }),
    onMutate: async ({ schedule, enabled }) => {
      await client.cancelQueries({ queryKey: listKey });
      const before = client.getQueryData<Schedule[]>(listKey);
      client.setQueryData<Schedule[]>(listKey, (items) => items?.map((item) => (item.id === schedule.id ? { ...item, enabled } : item)));
      return { before };
    },
    onError: (_error, _variables, context) => {
      if (context?.before) client.setQueryData(listKey, context.before);
    },
    onSettled: (_answer, _error, { schedule }) => {
      void client.invalidateQueries({ queryKey: listKey });
      void client.invalidateQueries({ queryKey: queryKeys.schedule(projectId, schedule.id) });
    },
  });
}

/** `Run now`: the live version once, now (even while disabled); 409 when nothing is live. */
export function useRunSchedule(projectId: string) {
  return useMutation({
    mutationFn: (scheduleId: string) => api('POST /v1/projects/{projectId}/schedules/{scheduleId}/run', { params: { projectId, scheduleId } }),
  });
}
