import { type ReactNode, useId, useRef } from 'react';
import { useFocusTrap } from './use-focus-trap';

/** A modal dialog: named by its title, closes with Escape and the `Done` button. */
export function Dialog({
  title,
  onClose,
  children,
  footer,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** For a form with rows of fields (a table's columns). */
  wide?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useFocusTrap(ref, onClose);
  return (
    <div className="backdrop">
      <div ref={ref} className={wide ? 'dialog wide' : 'dialog'} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <h2 id={titleId}>{title}</h2>
        {children}
        <div className="dialog-actions">
          {footer}
          <button type="button" className={footer ? 'button secondary' : 'button'} onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </div>
  );
}
