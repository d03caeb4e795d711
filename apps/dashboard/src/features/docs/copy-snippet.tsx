import { COPY_MESSAGES, useCopy } from '../../ui/use-copy';

/** A code sample with a Copy button (`Copy <label>`) under `title` (default: the label); says whether copying worked. */
export function CopySnippet({ label, title = label, code }: { label: string; title?: string; code: string }) {
  const { outcome, copy } = useCopy();
  return (
    <figure className="snippet">
      <figcaption>
        <span>{title}</span>
        <button type="button" className="button secondary small" onClick={() => void copy(code)}>
          Copy {label}
        </button>
        {/* Always in the DOM, so the outcome is read when it changes (a live region added with its text is not). */}
        <span className="muted" role="status">
          {outcome ? COPY_MESSAGES[outcome] : ''}
        </span>
      </figcaption>
      <pre>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
