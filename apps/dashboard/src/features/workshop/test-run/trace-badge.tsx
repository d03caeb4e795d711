import { outputText, statusLine } from './trace-output';
import { useTraceEntry } from './trace-store';

const PREVIEW_CHARS = 60;

/** On a canvas node: what the block did in the last test run (nothing when it did not run). */
export function TraceBadge({ nodeId }: { nodeId: string }) {
  const entry = useTraceEntry(nodeId);
  if (!entry) return null;
  // The node already says which block it is: "Decode Text (n1): input is not valid hex" → "input is not valid hex".
  const preview = entry.error ? entry.error.message.replace(`${entry.label} (${entry.node_id}): `, '') : outputText(entry.output);
  return (
    <div className={`tr-badge tr-${entry.status}`} data-trace-status={entry.status}>
      <span className="tr-badge-status">{statusLine(entry, true)}</span>
      {preview && <span className="tr-badge-output">{preview.length > PREVIEW_CHARS ? `${preview.slice(0, PREVIEW_CHARS)}…` : preview}</span>}
    </div>
  );
}
