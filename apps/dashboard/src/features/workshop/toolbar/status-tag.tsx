import { useState } from 'react';
import type { Endpoint } from '../../../api/types';
import { endpointStatus } from '../../endpoints/endpoint-status';

/** Live (with its URL) / Live · changes not deployed / Draft, as the endpoint list shows it. */
export function StatusTag({ endpoint, dirty }: { endpoint: Endpoint; dirty: boolean }) {
  const [copied, setCopied] = useState(false);
  const live = endpoint.status === 'live';
  const text = endpointStatus({ status: endpoint.status, has_undeployed_changes: endpoint.has_undeployed_changes || dirty });
  const pending = text === 'Live · changes not deployed';
  const copy = async () => {
    if (!endpoint.live_url) return;
    await navigator.clipboard?.writeText(endpoint.live_url).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <div className="ws-status-area">
      <span role="status" className={`ws-tag ${live ? (pending ? 'ws-tag-pending' : 'ws-tag-live') : 'ws-tag-draft'}`}>
        {text}
      </span>
      {live && endpoint.live_url && (
        <>
          <a className="ws-live-url" href={endpoint.live_url} target="_blank" rel="noreferrer">
            {endpoint.live_url}
          </a>
          <button type="button" className="ws-button ws-quiet" onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy URL'}
          </button>
        </>
      )}
    </div>
  );
}
