import type { AssistantDraft } from '../../../api/assistant';
import type { Endpoint } from '../../../api/types';
import { docFromEndpoint } from '../model/endpoint-doc';
import type { EndpointSettingsDraft, WorkshopDoc } from '../model/workshop-document';

/** The editor's document a draft makes: its settings over the current ones, its flow in place of the canvas. */
export function docFromDraft(current: EndpointSettingsDraft, draft: AssistantDraft): WorkshopDoc {
  const settings = { ...current, ...draft.settings } as EndpointSettingsDraft;
  return docFromEndpoint({
    ...settings,
    query_params: (settings.query_params ?? []) as Endpoint['query_params'],
    body_schema: (settings.body_schema ?? null) as Endpoint['body_schema'],
    signature: (settings.signature ?? null) as Endpoint['signature'],
    flow: draft.flow as Endpoint['flow'],
  });
}
