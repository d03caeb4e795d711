import type { BodySchema, CacheSettings, FlowEdge, FlowKind, FlowNode, FunctionInput, HttpMethod, McpSettings, QueryParamType, SignatureSettings } from '@flowgate/flow-engine';

export type EndpointAuth = 'none' | 'user' | 'admin';

export interface QueryParamDraft {
  key: string;
  default: string | null;
  /** Absent: `string`. */
  type?: QueryParamType;
  required?: boolean;
  /** An `enum`'s accepted values. */
  values?: string[];
}

/** An endpoint's base settings block: what the endpoint list and the gateway route on. */
export interface EndpointSettingsDraft {
  kind: 'endpoint';
  name: string;
  method: HttpMethod;
  path: string;
  auth: EndpointAuth;
  query_params: QueryParamDraft[];
  /** POST/PUT/PATCH: what the body must look like (docs/inbound.md); absent or null: any body. */
  body_schema?: BodySchema | null;
  signature?: SignatureSettings | null;
  /** GET only. */
  cache?: CacheSettings | null;
  /** A tool of the project's MCP server. */
  mcp?: McpSettings | null;
}

/** A function's base settings block: its name, description and typed inputs (`{input.NAME}`). */
export interface FunctionSettingsDraft {
  kind: 'function';
  name: string;
  description: string;
  inputs: FunctionInputDraft[];
}

/** One input as edited: `default` absent is no default. */
export type FunctionInputDraft = Pick<FunctionInput, 'name' | 'type' | 'required'> & { default?: unknown };

/** A schedule's base settings block: its clock. `enabled` is not versioned (it switches the live version). */
export interface ScheduleSettingsDraft {
  kind: 'schedule';
  name: string;
  cron: string;
  timezone: string;
  enabled: boolean;
}

/** The base settings block of what the flow belongs to (`kind`: an endpoint, a function or a schedule). */
export type SettingsDraft = EndpointSettingsDraft | FunctionSettingsDraft | ScheduleSettingsDraft;
export type { FlowKind };

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

/** The settings as their kind; endpoint-only parts of the editor are shown only for endpoints. */
export function settingsOf<K extends FlowKind>(doc: WorkshopDoc, kind: K): Extract<SettingsDraft, { kind: K }> {
  if (doc.settings.kind !== kind) throw new Error(`the Workshop edits a ${doc.settings.kind}, not a ${kind}`);
  return doc.settings as Extract<SettingsDraft, { kind: K }>;
}
