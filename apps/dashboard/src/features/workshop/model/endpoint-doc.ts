import type { BodySchema, FlowEdge, FlowNode, SignatureSettings } from '@flowgate/flow-engine';
import type { Endpoint, EndpointInput } from '../../../api/types';
import { settingsOf, type WorkshopDoc } from './workshop-document';

/** The start block first: a flow saved without one (an import, a template) gets one. */
export function withStart(flow: { nodes?: unknown[]; edges?: unknown[] }): Pick<WorkshopDoc, 'nodes' | 'edges'> {
  const nodes = (flow.nodes ?? []) as FlowNode[];
  return {
    nodes: nodes.some((node) => node.type === 'start') ? nodes : [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, ...nodes],
    edges: (flow.edges ?? []) as FlowEdge[],
  };
}

/** The editor's document from an endpoint as the API returns it. */
export function docFromEndpoint(
  endpoint: Pick<Endpoint, 'name' | 'method' | 'path' | 'auth' | 'query_params' | 'flow'> & Partial<Pick<Endpoint, 'body_schema' | 'signature' | 'cache' | 'mcp'>>,
): WorkshopDoc {
  return {
    ...withStart(endpoint.flow),
    settings: {
      kind: 'endpoint',
      name: endpoint.name,
      method: endpoint.method,
      path: endpoint.path,
      auth: endpoint.auth,
      query_params: endpoint.query_params.map(({ key, default: fallback, type, required, values }) => ({
        key,
        default: fallback,
        ...(type !== undefined && type !== 'string' ? { type } : {}),
        ...(required ? { required } : {}),
        ...(values !== undefined ? { values } : {}),
      })),
      body_schema: (endpoint.body_schema ?? null) as BodySchema | null,
      signature: (endpoint.signature ?? null) as SignatureSettings | null,
      cache: endpoint.cache ?? null,
      mcp: endpoint.mcp ?? null,
    },
  };
}

/** What Save sends (`PUT`). An empty default is no default. */
export function saveBody(doc: WorkshopDoc): EndpointInput {
  const { kind: _kind, ...settings } = settingsOf(doc, 'endpoint');
  return {
    ...settings,
    query_params: settings.query_params.map((param) => ({ ...param, default: param.default === '' ? null : param.default })),
    body_schema: settings.body_schema ?? null,
    signature: settings.signature ?? null,
    cache: settings.cache ?? null,
    mcp: settings.mcp ?? null,
    flow: { nodes: doc.nodes, edges: doc.edges },
  };
}

/** The file `Export` downloads: the same document `Import` reads (docs/control-plane.md, export). */
export function exportDocument(doc: WorkshopDoc): string {
  const { flow, ...settings } = saveBody(doc);
  return `${JSON.stringify({ flowgate_export: 1, endpoint: { ...settings, flow } }, null, 2)}\n`;
}

export const flowOf = (doc: WorkshopDoc) => ({ nodes: doc.nodes, edges: doc.edges });
