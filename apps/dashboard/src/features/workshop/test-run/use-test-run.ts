import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { queryKeys } from '../../../api/query-keys';
import type { LogDetail } from '../../../api/types';
import type { TestRunBody, TestRunResult } from './test-run-types';

/** `POST …/test-runs`: runs the editor's flow with the panel's request. */
export function useTestRun(projectId: string, endpointId: string) {
  return useMutation({
    mutationFn: async (body: TestRunBody): Promise<TestRunResult> =>
      api('POST /v1/projects/{projectId}/endpoints/{endpointId}/test-runs', { params: { projectId, endpointId }, body }),
  });
}

/** The logged request a `?replay=<logId>` link points at (null: no replay asked). */
export function useReplayedLog(projectId: string, logId: string | null) {
  return useQuery({
    queryKey: [...queryKeys.logs(projectId), 'detail', logId ?? ''],
    queryFn: async (): Promise<LogDetail> => api('GET /v1/projects/{projectId}/logs/{logId}', { params: { projectId, logId: logId! } }),
    enabled: logId !== null,
    staleTime: Infinity,
  });
}
