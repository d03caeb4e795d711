import { useState } from 'react';
import type { Endpoint } from '../../../api/types';
import { endpointStatus } from '../../endpoints/endpoint-status';

/**
 * Live (with its URL) / Live · changes not deployed / Draft, as the endpoint list shows it, and
 * the preview URL, where the saved draft is served (with any API key of the project).
 */
export function StatusTag({ endpoint, dirty }: { endpoint: Endpoint; dirty: boolean }) {
  const live = endpoint.status === 'live';
  const text = endpointStatus({ status: endpoint.status, has_undeployed_changes: endpoint.has_undeployed_changes || dirty });
  const pending = text === 'Live · changes not deployed';
  return (
    <div className="ws-status-area">
      <span role="status" className={`ws-tag ${live ? (pending ? 'ws-tag-pending' : 'ws-tag-live') : 'ws-tag-draft'}`}>
        {text}
      </span>
      {live && endpoint.live_url && <CopyableUrl url={endpoint.live_url} label="Copy URL" />}
      <span className="ws-muted">Preview</span>
      <CopyableUrl url={endpoint.preview_url} label="Copy preview URL" title="The saved draft, served with any API key of the project" />
    </div>
  );
}

function CopyableUrl({ url, label, title }: { url: string; label: string; title?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <>
      <a className="ws-live-url" href={url} target="_blank" rel="noreferrer" title={title}>
        {url}
      </a>
      {/* The name stays the same while "Copied" shows, so the control is found by it either way. */}
      <button type="button" className="ws-button ws-quiet" aria-label={label} onClick={() => void copy()}>
        {copied ? 'Copied' : label}
      </button>
    </>
  );
}
