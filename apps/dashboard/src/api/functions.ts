import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';
import type { SaveFunctionDto } from './generated/openapi';

export function useFunctions(projectId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.functions(projectId),
    queryFn: async () => (await api('GET /v1/projects/{projectId}/functions', { params: { projectId } })).items,
    enabled: options.enabled ?? true,
  });
}

export function useFunction(projectId: string, functionId: string) {
  return useQuery({
    queryKey: queryKeys.function(projectId, functionId),
    queryFn: () => api('GET /v1/projects/{projectId}/functions/{functionId}', { params: { projectId, functionId } }),
  });
}

export function useCreateFunction(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveFunctionDto) => api('POST /v1/projects/{projectId}/functions', { params: { projectId }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.functions(projectId) }),
  });
}

/** Refused with 409 `function_in_use` while live flows call it (the message names them). */
export function useDeleteFunction(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (functionId: string) => api('DELETE /v1/projects/{projectId}/functions/{functionId}', { params: { projectId, functionId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.functions(projectId) }),
  });
}
