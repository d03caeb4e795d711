import { useState } from 'react';

/** A code sample with a Copy button (`Copy <label>`); says whether copying worked. */
export function CopySnippet({ label, code }: { label: string; code: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <figure className="snippet">
      <figcaption>
        <span>{label}</span>
        <button type="button" className="button secondary small" onClick={() => void copy()}>
          Copy {label}
        </button>
        {copied && (
          <span className="muted" role="status">
            {copied === 'yes' ? 'Copied' : 'Copying failed: select the text and copy it yourself'}
          </span>
        )}
      </figcaption>
      <pre>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
