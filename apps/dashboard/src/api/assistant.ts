import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';
import type { DraftDto } from './generated/openapi';

export type AssistantDraft = DraftDto;

/** Whether the operator set the assistant's key (the panel says how to enable it otherwise). */
export function useAssistantStatus() {
  return useQuery({ queryKey: queryKeys.assistant, queryFn: () => api('GET /v1/assistant'), staleTime: 60_000 });
}

/** One draft; `signal` aborts the request (and with it the model's work on the server). */
export function draftEndpoint(projectId: string, body: { prompt: string; endpoint_id?: string }, signal: AbortSignal): Promise<AssistantDraft> {
  return api('POST /v1/projects/{projectId}/assistant/drafts', { params: { projectId }, body, signal });
}
