import type { Endpoint } from '../../../api/types';
import { useAnnounce } from '../../../ui/announcer';
import { COPY_MESSAGES, useCopy } from '../../../ui/use-copy';

/**
 * The live URL (when live) and the preview URL, where the saved draft is served (with any API key
 * of the project): whole, on a line of their own under the toolbar, each with its copy button.
 */
export function EndpointUrls({ endpoint }: { endpoint: Endpoint }) {
  return (
    <div className="ws-urls">
      {endpoint.status === 'live' && endpoint.live_url && <CopyableUrl caption="Live" url={endpoint.live_url} label="Copy URL" />}
      <CopyableUrl caption="Preview" url={endpoint.preview_url} label="Copy preview URL" title="The saved draft, served with any API key of the project" />
    </div>
  );
}

function CopyableUrl({ caption, url, label, title }: { caption: string; url: string; label: string; title?: string }) {
  const announce = useAnnounce();
  const { copy } = useCopy();
  return (
    <span className="ws-url">
      <span className="ws-url-caption">{caption}</span>
      <a className="ws-url-link" href={url} target="_blank" rel="noreferrer" title={title}>
        {url}
      </a>
      <button type="button" className="ws-button ws-quiet" onClick={() => void copy(url).then((outcome) => announce(COPY_MESSAGES[outcome]))}>
        {label}
      </button>
    </span>
  );
}
