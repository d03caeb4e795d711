import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** An OpenAPI 3.1 document as the API description endpoint answers it (read loosely: it is plain JSON). */
export type OpenApiDocument = {
  info?: { title?: string; version?: string };
  servers?: Array<{ url: string }>;
  paths?: Record<string, Record<string, unknown>>;
};

/** The document of the project's live endpoints: the same text the gateways serve at /_openapi.json. */
export function useApiDescription(projectId: string) {
  return useQuery({
    queryKey: ['projects', projectId, 'openapi'],
    queryFn: async () => (await api('GET /v1/projects/{projectId}/openapi.json', { params: { projectId } })) as OpenApiDocument,
  });
}

/** Where the dashboard downloads the JSON (same origin, the session cookie applies). */
export const apiDescriptionUrl = (projectId: string): string => `/v1/projects/${encodeURIComponent(projectId)}/openapi.json`;
