import type { Endpoint } from '../../api/types';
import { endpointStatus } from './endpoint-status';

const BADGE = { Live: 'badge live', Draft: 'badge', 'Live · changes not deployed': 'badge changed' } as const;

/** `Live`, `Draft` or `Live · changes not deployed`, as every list of flows shows it. */
export function StatusBadge({ resource }: { resource: Pick<Endpoint, 'status' | 'has_undeployed_changes'> }) {
  const status = endpointStatus(resource);
  return <span className={BADGE[status]}>{status}</span>;
}
