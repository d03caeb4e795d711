import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';
import type { NewApiKey } from './types';

export function useApiKeys(projectId: string) {
  return useQuery({
    queryKey: queryKeys.apiKeys(projectId),
    queryFn: async () => (await api('GET /v1/projects/{projectId}/api-keys', { params: { projectId } })).items,
  });
}

export function useCreateApiKey(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewApiKey) => api('POST /v1/projects/{projectId}/api-keys', { params: { projectId }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(projectId) }),
  });
}

export function useDeleteApiKey(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => api('DELETE /v1/projects/{projectId}/api-keys/{keyId}', { params: { projectId, keyId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(projectId) }),
  });
}
