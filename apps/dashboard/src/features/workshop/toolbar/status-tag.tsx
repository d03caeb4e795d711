import type { FlowResource } from '../../../api/flow-calls';
import { endpointStatus } from '../../endpoints/endpoint-status';

/** Live / Live · changes not deployed / Draft, as the endpoint list shows it. */
export function StatusTag({ resource, dirty }: { resource: FlowResource; dirty: boolean }) {
  const live = resource.status === 'live';
  const text = endpointStatus({ status: resource.status, has_undeployed_changes: resource.has_undeployed_changes || dirty });
  const pending = text === 'Live · changes not deployed';
  return (
    <span role="status" className={`ws-tag ${live ? (pending ? 'ws-tag-pending' : 'ws-tag-live') : 'ws-tag-draft'}`}>
      {text}
    </span>
  );
}
