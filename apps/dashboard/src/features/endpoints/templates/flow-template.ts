import type { EndpointInput, NewTable, ScheduleInput } from '../../../api/types';

/** A schedule a template makes: the time zone is the browser's, like `New schedule`'s. */
export type TemplateSchedule = Omit<ScheduleInput, 'timezone'>;

/**
 * A starting point offered by `Start from a template`: the endpoints and schedules it creates
 * (flow documents shipped with the dashboard), the tables they need (created when missing), and
 * for endpoints a request that shows it working — the browser test deploys every template and
 * sends that request through the gateway.
 */
export interface FlowTemplate {
  title: string;
  description: string;
  /** What the user must add for it to deploy (a secret), said in the dialog. */
  needs?: string;
  tables?: NewTable[];
  endpoints: EndpointInput[];
  schedules?: TemplateSchedule[];
  tryIt?: { method: string; path: string; body?: unknown; answer: Record<string, unknown> };
}

/** A flow read left to right: each block one step to the right of the one before it. */
export function chain(blocks: Array<{ id: string; type: string; config?: Record<string, unknown> }>): EndpointInput['flow'] {
  const nodes = [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, ...blocks.map((block, index) => ({ ...block, position: { x: (index + 1) * 240, y: 0 } }))];
  const edges = nodes.slice(1).map((node, index) => ({ id: `e${index + 1}`, source: nodes[index]!.id, target: node.id }));
  return { nodes, edges } as EndpointInput['flow'];
}
