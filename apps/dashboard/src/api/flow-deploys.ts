import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { flowCalls, type FlowKind, type FlowResource } from './flow-calls';
import { queryKeys } from './query-keys';

/** The Workshop's server calls for what it edits: Save (PUT), Deploy, the deployed versions and rolling back. */
export interface FlowTarget {
  kind: FlowKind;
  projectId: string;
  id: string;
}

function useResourceCache({ kind, projectId, id }: FlowTarget) {
  const client = useQueryClient();
  return (resource: FlowResource) => {
    client.setQueryData(queryKeys.flowResource(kind, projectId, id), resource);
    void client.invalidateQueries({ queryKey: queryKeys.flowResources(kind, projectId), exact: true });
  };
}

/** The answer without the Save's diagnostics: what the page's query holds. */
const withoutDiagnostics = ({ diagnostics: _diagnostics, ...resource }: FlowResource & { diagnostics?: unknown }) => resource as FlowResource;

export function useSaveFlow(target: FlowTarget) {
  const store = useResourceCache(target);
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => flowCalls[target.kind].save(target.projectId, target.id, body),
    onSuccess: (answer) => store(withoutDiagnostics(answer)),
  });
}

export function useDeployFlow(target: FlowTarget) {
  const store = useResourceCache(target);
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => flowCalls[target.kind].deploy(target.projectId, target.id),
    onSuccess: (answer) => {
      store(withoutDiagnostics(answer));
      void client.invalidateQueries({ queryKey: queryKeys.flowVersions(target.kind, target.projectId, target.id) });
    },
  });
}

export function useFlowVersions(target: FlowTarget, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.flowVersions(target.kind, target.projectId, target.id),
    queryFn: () => flowCalls[target.kind].versions(target.projectId, target.id),
    enabled,
  });
}

export function useRollback(target: FlowTarget) {
  const store = useResourceCache(target);
  const client = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => flowCalls[target.kind].rollback(target.projectId, target.id, version),
    onSuccess: (resource) => {
      store(resource);
      void client.invalidateQueries({ queryKey: queryKeys.flowVersions(target.kind, target.projectId, target.id) });
    },
  });
}
