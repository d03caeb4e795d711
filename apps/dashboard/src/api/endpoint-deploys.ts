import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';
import type { Endpoint, EndpointInput } from './types';

/** The Workshop's server calls: Save (PUT), Deploy, the deployed versions and rolling back. */
function useEndpointCache(projectId: string, endpointId: string) {
  const client = useQueryClient();
  return (endpoint: Endpoint) => {
    client.setQueryData(queryKeys.endpoint(projectId, endpointId), endpoint);
    void client.invalidateQueries({ queryKey: queryKeys.endpoints(projectId), exact: true });
  };
}

export function useSaveEndpoint(projectId: string, endpointId: string) {
  const store = useEndpointCache(projectId, endpointId);
  return useMutation({
    mutationFn: (body: EndpointInput) => api('PUT /v1/projects/{projectId}/endpoints/{endpointId}', { params: { projectId, endpointId }, body }),
    onSuccess: ({ diagnostics: _diagnostics, ...endpoint }) => store(endpoint as Endpoint),
  });
}

export function useDeployEndpoint(projectId: string, endpointId: string) {
  const store = useEndpointCache(projectId, endpointId);
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api('POST /v1/projects/{projectId}/endpoints/{endpointId}/deploy', { params: { projectId, endpointId } }),
    onSuccess: ({ diagnostics: _diagnostics, ...endpoint }) => {
      store(endpoint as Endpoint);
      void client.invalidateQueries({ queryKey: queryKeys.endpointVersions(projectId, endpointId) });
    },
  });
}

export function useEndpointVersions(projectId: string, endpointId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.endpointVersions(projectId, endpointId),
    queryFn: async () => (await api('GET /v1/projects/{projectId}/endpoints/{endpointId}/versions', { params: { projectId, endpointId } })).items,
    enabled,
  });
}

export function useRollback(projectId: string, endpointId: string) {
  const store = useEndpointCache(projectId, endpointId);
  const client = useQueryClient();
  return useMutation({
    mutationFn: (version: number) =>
      api('POST /v1/projects/{projectId}/endpoints/{endpointId}/versions/{version}/deploy', { params: { projectId, endpointId, version: String(version) } }),
    onSuccess: (endpoint) => {
      store(endpoint);
      void client.invalidateQueries({ queryKey: queryKeys.endpointVersions(projectId, endpointId) });
    },
  });
}
