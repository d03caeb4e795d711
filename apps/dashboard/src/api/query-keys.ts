import type { FlowKind } from './flow-calls';

const COLLECTIONS = { endpoint: 'endpoints', function: 'functions', schedule: 'schedules' } as const;

/** Every cache key in one place, so an update invalidates exactly what it changed. */
export const queryKeys = {
  me: ['me'] as const,
  projects: ['projects'] as const,
  project: (projectId: string) => ['projects', projectId] as const,
  endpoints: (projectId: string) => ['projects', projectId, 'endpoints'] as const,
  endpoint: (projectId: string, endpointId: string) => ['projects', projectId, 'endpoints', endpointId] as const,
  functions: (projectId: string) => ['projects', projectId, 'functions'] as const,
  function: (projectId: string, functionId: string) => ['projects', projectId, 'functions', functionId] as const,
  schedules: (projectId: string) => ['projects', projectId, 'schedules'] as const,
  schedule: (projectId: string, scheduleId: string) => ['projects', projectId, 'schedules', scheduleId] as const,
  /** An endpoint's, a function's or a schedule's list, one of them, its versions (the Workshop's keys for any kind). */
  flowResources: (kind: FlowKind, projectId: string) => ['projects', projectId, COLLECTIONS[kind]] as const,
  flowResource: (kind: FlowKind, projectId: string, id: string) => ['projects', projectId, COLLECTIONS[kind], id] as const,
  flowVersions: (kind: FlowKind, projectId: string, id: string) => ['projects', projectId, COLLECTIONS[kind], id, 'versions'] as const,
  apiKeys: (projectId: string) => ['projects', projectId, 'api-keys'] as const,
  integrations: (projectId: string) => ['projects', projectId, 'integrations'] as const,
  secrets: (projectId: string) => ['projects', projectId, 'secrets'] as const,
  logs: (projectId: string) => ['projects', projectId, 'logs'] as const,
  tables: (projectId: string) => ['projects', projectId, 'tables'] as const,
  table: (projectId: string, tableId: string) => ['projects', projectId, 'tables', tableId] as const,
  rows: (projectId: string, tableId: string) => ['projects', projectId, 'tables', tableId, 'rows'] as const,
  subdomain: (name: string) => ['subdomains', name] as const,
  assistant: ['assistant'] as const,
};
