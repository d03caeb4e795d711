import type { Endpoint } from '../../api/types';

/** The live endpoints whose flow has a block on table `name` (what breaks when it goes). */
export function liveEndpointsUsing(endpoints: readonly Endpoint[], name: string): Endpoint[] {
  return endpoints.filter((endpoint) => endpoint.status === 'live' && flowUsesTable(endpoint.flow, name));
}

function flowUsesTable(flow: Endpoint['flow'], name: string): boolean {
  return flow.nodes.some((node) => {
    const config = (node as { config?: { table?: unknown } }).config;
    return config?.table === name;
  });
}
