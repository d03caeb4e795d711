import type { Endpoint, EndpointInput } from '../../api/types';

export type EndpointStatusLabel = 'Live' | 'Draft' | 'Live · changes not deployed';

/** The status words of docs/dashboard.md, shared by the list and the Workshop's status tag. */
export function endpointStatus(endpoint: Pick<Endpoint, 'status' | 'has_undeployed_changes'>): EndpointStatusLabel {
  if (endpoint.status !== 'live') return 'Draft';
  return endpoint.has_undeployed_changes ? 'Live · changes not deployed' : 'Live';
}

/** The first `/endpoint-N` no endpoint of the project uses, and its name. */
export function freeEndpointPath(endpoints: Array<Pick<Endpoint, 'path'>>): { path: string; name: string } {
  const taken = new Set(endpoints.map((endpoint) => endpoint.path.toLowerCase()));
  let n = 1;
  while (taken.has(`/endpoint-${n}`)) n += 1;
  return { path: `/endpoint-${n}`, name: `Endpoint ${n}` };
}

/** What `New endpoint` (and `Describe it instead`) creates: GET at the first free path, the Start block alone. */
export function blankEndpoint(endpoints: Array<Pick<Endpoint, 'path'>>): EndpointInput {
  const { path, name } = freeEndpointPath(endpoints);
  return { name, method: 'GET', path, auth: 'none', query_params: [], flow: { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] } };
}
