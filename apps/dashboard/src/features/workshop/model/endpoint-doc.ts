import type { FlowEdge, FlowNode } from '@flowgate/flow-engine';
import type { Endpoint, EndpointInput } from '../../../api/types';
import type { WorkshopDoc } from './workshop-document';

/** The editor's document from an endpoint as the API returns it. */
export function docFromEndpoint(endpoint: Pick<Endpoint, 'name' | 'method' | 'path' | 'auth' | 'query_params' | 'flow'>): WorkshopDoc {
  const nodes = (endpoint.flow.nodes ?? []) as FlowNode[];
  return {
    nodes: nodes.some((node) => node.type === 'start') ? nodes : [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, ...nodes],
    edges: (endpoint.flow.edges ?? []) as FlowEdge[],
    settings: {
      name: endpoint.name,
      method: endpoint.method,
      path: endpoint.path,
      auth: endpoint.auth,
      query_params: endpoint.query_params.map((param) => ({ key: param.key, default: param.default })),
    },
  };
}

/** What Save sends (`PUT`). An empty default is no default. */
export function saveBody(doc: WorkshopDoc): EndpointInput {
  return {
    ...doc.settings,
    query_params: doc.settings.query_params.map((param) => ({ key: param.key, default: param.default === '' ? null : param.default })),
    flow: { nodes: doc.nodes, edges: doc.edges },
  };
}

/** The file `Export` downloads: the same document `Import` reads (DESIGN.md, export). */
export function exportDocument(doc: WorkshopDoc): string {
  const { flow, ...settings } = saveBody(doc);
  return `${JSON.stringify({ flowgate_export: 1, endpoint: { ...settings, flow } }, null, 2)}\n`;
}

export const flowOf = (doc: WorkshopDoc) => ({ nodes: doc.nodes, edges: doc.edges });
