import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';
import type { EmailInput, TextGenerationInput } from './types';

export type IntegrationKind = 'text-generation' | 'email';

export function useIntegrations(projectId: string) {
  return useQuery({
    queryKey: queryKeys.integrations(projectId),
    queryFn: async () => (await api('GET /v1/projects/{projectId}/integrations', { params: { projectId } })).items,
  });
}

export type IntegrationChange =
  | { kind: 'text-generation'; body: TextGenerationInput }
  | { kind: 'email'; body: EmailInput };

export function usePutIntegration(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: IntegrationChange) =>
      change.kind === 'email'
        ? api('PUT /v1/projects/{projectId}/integrations/email', { params: { projectId }, body: change.body })
        : api('PUT /v1/projects/{projectId}/integrations/text-generation', { params: { projectId }, body: change.body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.integrations(projectId) }),
  });
}

export function useRemoveIntegration(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (kind: IntegrationKind) => api('DELETE /v1/projects/{projectId}/integrations/{kind}', { params: { projectId, kind } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.integrations(projectId) }),
  });
}
