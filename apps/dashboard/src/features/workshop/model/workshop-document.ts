import type { FlowEdge, FlowNode, HttpMethod } from '@flowgate/flow-engine';

export type EndpointAuth = 'none' | 'user' | 'admin';

export interface QueryParamDraft {
  key: string;
  default: string | null;
}

/** The base settings block: what the endpoint list and the gateway route on. */
export interface SettingsDraft {
  name: string;
  method: HttpMethod;
  path: string;
  auth: EndpointAuth;
  query_params: QueryParamDraft[];
}

/** Everything an edit can change, and so everything undo restores. Immutable: edits make a new one. */
export interface WorkshopDoc {
  nodes: FlowNode[];
  edges: FlowEdge[];
  settings: SettingsDraft;
}

export interface Position {
  x: number;
  y: number;
}

/** The blocks of a copy, with the connections between them. */
export interface Clipboard {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

export const START_TYPE = 'start';
