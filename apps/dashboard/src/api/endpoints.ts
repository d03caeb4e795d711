import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';
import type { EndpointExportDto } from './generated/openapi';
import type { EndpointInput } from './types';

export function useEndpoints(projectId: string) {
  return useQuery({
    queryKey: queryKeys.endpoints(projectId),
    queryFn: async () => (await api('GET /v1/projects/{projectId}/endpoints', { params: { projectId } })).items,
  });
}

export function useEndpoint(projectId: string, endpointId: string) {
  return useQuery({
    queryKey: queryKeys.endpoint(projectId, endpointId),
    queryFn: () => api('GET /v1/projects/{projectId}/endpoints/{endpointId}', { params: { projectId, endpointId } }),
  });
}

export function useCreateEndpoint(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointInput) => api('POST /v1/projects/{projectId}/endpoints', { params: { projectId }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints(projectId) }),
  });
}

export function useDeleteEndpoint(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) => api('DELETE /v1/projects/{projectId}/endpoints/{endpointId}', { params: { projectId, endpointId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints(projectId) }),
  });
}

/** A new draft from an export file (`{flowgate_export: 1, endpoint}`); the server validates it. */
export function useImportEndpoint(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    // Whatever the file holds is sent as is: the server's validation names what is wrong with it.
    mutationFn: (file: unknown) => api('POST /v1/projects/{projectId}/endpoints/import', { params: { projectId }, body: file as EndpointExportDto }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.endpoints(projectId) }),
  });
}
