import { type ReactNode, useId, useRef, useState } from 'react';
import { UnsavedQuestion } from './leave-guard';
import { useFocusTrap } from './use-focus-trap';

/**
 * A modal dialog: named by its title, closes with Escape and the `Done` button; with `unsaved`
 * edits in it, closing asks first (`Discard your changes?`: `Keep editing` / `Discard`).
 */
export function Dialog({
  title,
  onClose,
  children,
  footer,
  wide = false,
  unsaved = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** For a form with rows of fields (a table's columns). */
  wide?: boolean;
  /** Filled-in fields that closing would drop. */
  unsaved?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const [asking, setAsking] = useState(false);
  const close = () => (unsaved ? setAsking(true) : onClose());
  useFocusTrap(ref, close);
  return (
    <div className="backdrop">
      {asking && (
        <UnsavedQuestion title="Discard your changes?" stay="Keep editing" drop="Discard" onStay={() => setAsking(false)} onDrop={onClose}>
          What you filled in here is lost if you close it now.
        </UnsavedQuestion>
      )}
      <div ref={ref} className={wide ? 'dialog wide' : 'dialog'} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <h2 id={titleId}>{title}</h2>
        {children}
        <div className="dialog-actions">
          {footer}
          <button type="button" className={footer ? 'button secondary' : 'button'} onClick={close}>
            Done
          </button>
        </div>
      </div>
    </div>
  );
}
