import type { TraceEntry } from './test-run-types';
import { SKIP_REASONS } from './test-run-types';

/** An output as text: strings as they are, everything else as JSON (indented when asked). */
export function outputText(output: unknown, indent = false): string {
  if (output === undefined) return '';
  if (typeof output === 'string') return output;
  return JSON.stringify(output, null, indent ? 2 : undefined) ?? '';
}

/** "ok · 0.4 ms", "skipped: email shown, not sent", "error: …"; `compact` for a canvas node. */
export function statusLine(entry: TraceEntry, compact = false): string {
  const duration = `${formatMs(entry.duration_ms)}`;
  if (entry.status === 'skipped') return `skipped: ${entry.skipped_reason ? SKIP_REASONS[entry.skipped_reason] : 'did nothing'} · ${duration}`;
  if (entry.status === 'error') {
    if (entry.error_path) return `error · went on by the error handle · ${duration}`;
    if (entry.error_in_result) return compact ? `error · went on · ${duration}` : `error · went on, its result says why · ${duration}`;
    return `error · ${duration}`;
  }
  return entry.branch ? `ok · branch ${entry.branch} · ${duration}` : `ok · ${duration}`;
}

export const formatMs = (ms: number): string => `${ms < 10 ? ms.toFixed(2) : Math.round(ms)} ms`;

/** One block's full result: status, the error, the output (the panel shows it for the selected node). */
export function TraceDetails({ entry }: { entry: TraceEntry }) {
  return (
    <div className="tr-details">
      <p className={`tr-status tr-${entry.status}`}>{statusLine(entry)}</p>
      {entry.error && <p className="tr-error-text">{entry.error.message}</p>}
      {entry.output !== undefined && (
        <pre className="tr-output" aria-label={`Output of ${entry.label}`}>
          {outputText(entry.output, true)}
        </pre>
      )}
      {entry.truncated && <p className="ws-muted">Cut at 16 KiB.</p>}
      <ConsoleLines entry={entry} />
    </div>
  );
}

/** Run Code's console output, one line per call, its level shown where it is not `log`. */
export function ConsoleLines({ entry }: { entry: TraceEntry }) {
  if (!entry.console || entry.console.length === 0) return null;
  return (
    <pre className="tr-output tr-console" aria-label={`Console of ${entry.label}`}>
      {entry.console.map((line, index) => (
        <span key={index} className={`tr-console-${line.level}`}>
          {line.level === 'log' ? '' : `${line.level}: `}
          {line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
