/** Every cache key in one place, so an update invalidates exactly what it changed. */
export const queryKeys = {
  me: ['me'] as const,
  projects: ['projects'] as const,
  project: (projectId: string) => ['projects', projectId] as const,
  endpoints: (projectId: string) => ['projects', projectId, 'endpoints'] as const,
  endpoint: (projectId: string, endpointId: string) => ['projects', projectId, 'endpoints', endpointId] as const,
  endpointVersions: (projectId: string, endpointId: string) => ['projects', projectId, 'endpoints', endpointId, 'versions'] as const,
  apiKeys: (projectId: string) => ['projects', projectId, 'api-keys'] as const,
  integrations: (projectId: string) => ['projects', projectId, 'integrations'] as const,
  secrets: (projectId: string) => ['projects', projectId, 'secrets'] as const,
  logs: (projectId: string) => ['projects', projectId, 'logs'] as const,
  tables: (projectId: string) => ['projects', projectId, 'tables'] as const,
  table: (projectId: string, tableId: string) => ['projects', projectId, 'tables', tableId] as const,
  rows: (projectId: string, tableId: string) => ['projects', projectId, 'tables', tableId, 'rows'] as const,
  subdomain: (name: string) => ['subdomains', name] as const,
};
