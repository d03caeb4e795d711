import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';
import type { NewProject, ProjectChanges } from './types';

export function useProjects() {
  return useQuery({ queryKey: queryKeys.projects, queryFn: async () => (await api('GET /v1/projects')).items });
}

export function useProject(projectId: string) {
  return useQuery({ queryKey: queryKeys.project(projectId), queryFn: () => api('GET /v1/projects/{projectId}', { params: { projectId } }) });
}

export function useCreateProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewProject) => api('POST /v1/projects', { body }),
    onSuccess: (project) => {
      client.setQueryData(queryKeys.project(project.id), project);
      return client.invalidateQueries({ queryKey: queryKeys.projects, exact: true });
    },
  });
}

export function useUpdateProject(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProjectChanges) => api('PATCH /v1/projects/{projectId}', { params: { projectId }, body }),
    onSuccess: (project) => {
      client.setQueryData(queryKeys.project(projectId), project);
      return client.invalidateQueries({ queryKey: queryKeys.projects, exact: true });
    },
  });
}

export function useDeleteProject(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api('DELETE /v1/projects/{projectId}', { params: { projectId } }),
    onSuccess: () => {
      client.removeQueries({ queryKey: queryKeys.project(projectId) });
      return client.invalidateQueries({ queryKey: queryKeys.projects, exact: true });
    },
  });
}

/** Whether a subdomain can be used; `name` is already debounced by the caller, empty means "do not ask". */
export function useSubdomainAvailability(name: string) {
  return useQuery({
    queryKey: queryKeys.subdomain(name),
    queryFn: ({ signal }) => api('GET /v1/subdomains/{name}', { params: { name }, signal }),
    enabled: name.length > 0,
    staleTime: 5_000,
  });
}
