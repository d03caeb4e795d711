import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';
import type { SecretInput } from './types';

export function useSecrets(projectId: string) {
  return useQuery({
    queryKey: queryKeys.secrets(projectId),
    queryFn: async () => (await api('GET /v1/projects/{projectId}/secrets', { params: { projectId } })).items,
  });
}

/** Creates or replaces a secret; the value goes in and never comes back. */
export function usePutSecret(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, body }: { name: string; body: SecretInput }) => api('PUT /v1/projects/{projectId}/secrets/{name}', { params: { projectId, name }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.secrets(projectId) }),
  });
}

/** `force` deletes even while live endpoints read it (their blocks then fail naming it). */
export function useDeleteSecret(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, force }: { name: string; force: boolean }) =>
      api('DELETE /v1/projects/{projectId}/secrets/{name}', { params: { projectId, name }, query: force ? { force: 'true' } : {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.secrets(projectId) }),
  });
}
