import { api } from './client';
import type { Endpoint, EndpointInput, FlowFunction, Schedule } from './types';
import type { SaveFunctionDto, SaveScheduleDto } from './generated/openapi';

/** What a flow belongs to: each has the same lifecycle (Save, Deploy, versions, roll back) under its own path. */
export type FlowKind = 'endpoint' | 'function' | 'schedule';

/** One thing a flow belongs to, as the API returns it, with the fields the Workshop's toolbar reads. */
export type FlowResource = (Endpoint & { kind?: 'endpoint' }) | FlowFunction | Schedule;

export interface FlowVersion {
  version: number;
  live: boolean;
  created_at: string;
}

interface FlowCalls {
  save(projectId: string, id: string, body: Record<string, unknown>): Promise<FlowResource & { diagnostics?: unknown }>;
  deploy(projectId: string, id: string): Promise<FlowResource & { diagnostics: unknown }>;
  versions(projectId: string, id: string): Promise<Array<FlowVersion & Record<string, unknown>>>;
  rollback(projectId: string, id: string, version: number): Promise<FlowResource>;
}

/**
 * The lifecycle calls of each kind, typed by the generated OpenAPI operations (a call the control
 * plane does not offer does not compile); the Workshop picks the row of what it edits.
 */
export const flowCalls: Record<FlowKind, FlowCalls> = {
  endpoint: {
    save: (projectId, endpointId, body) => api('PUT /v1/projects/{projectId}/endpoints/{endpointId}', { params: { projectId, endpointId }, body: body as EndpointInput }),
    deploy: (projectId, endpointId) => api('POST /v1/projects/{projectId}/endpoints/{endpointId}/deploy', { params: { projectId, endpointId } }),
    versions: async (projectId, endpointId) => (await api('GET /v1/projects/{projectId}/endpoints/{endpointId}/versions', { params: { projectId, endpointId } })).items,
    rollback: (projectId, endpointId, version) =>
      api('POST /v1/projects/{projectId}/endpoints/{endpointId}/versions/{version}/deploy', { params: { projectId, endpointId, version: String(version) } }),
  },
  function: {
    save: (projectId, functionId, body) => api('PUT /v1/projects/{projectId}/functions/{functionId}', { params: { projectId, functionId }, body: body as SaveFunctionDto }),
    deploy: (projectId, functionId) => api('POST /v1/projects/{projectId}/functions/{functionId}/deploy', { params: { projectId, functionId } }),
    versions: async (projectId, functionId) => (await api('GET /v1/projects/{projectId}/functions/{functionId}/versions', { params: { projectId, functionId } })).items,
    rollback: (projectId, functionId, version) =>
      api('POST /v1/projects/{projectId}/functions/{functionId}/versions/{version}/deploy', { params: { projectId, functionId, version: String(version) } }),
  },
  schedule: {
    save: (projectId, scheduleId, body) => api('PUT /v1/projects/{projectId}/schedules/{scheduleId}', { params: { projectId, scheduleId }, body: body as SaveScheduleDto }),
    deploy: (projectId, scheduleId) => api('POST /v1/projects/{projectId}/schedules/{scheduleId}/deploy', { params: { projectId, scheduleId } }),
    versions: async (projectId, scheduleId) => (await api('GET /v1/projects/{projectId}/schedules/{scheduleId}/versions', { params: { projectId, scheduleId } })).items,
    rollback: (projectId, scheduleId, version) =>
      api('POST /v1/projects/{projectId}/schedules/{scheduleId}/versions/{version}/deploy', { params: { projectId, scheduleId, version: String(version) } }),
  },
};
