import { type ReactNode, useId, useRef } from 'react';
import { errorMessage } from '../api/api-error';
import { useFocusTrap } from './use-focus-trap';

/**
 * Confirmation of a destructive action: an `alertdialog` with `Delete` (or `confirmLabel`) and
 * `Cancel`; focus starts on Cancel so that Enter alone never confirms. `canConfirm` gates the
 * confirming button (e.g. typing a name).
 */
export function ConfirmDialog({
  title,
  children,
  onConfirm,
  onCancel,
  busy = false,
  error,
  canConfirm = true,
  confirmLabel = 'Delete',
  busyLabel = 'Deleting…',
}: {
  title: string;
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  error?: unknown;
  canConfirm?: boolean;
  confirmLabel?: string;
  busyLabel?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useFocusTrap(ref, onCancel, children ? 'input' : '[data-cancel]');
  return (
    <div className="backdrop">
      <div ref={ref} className="dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={bodyId}>
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId} className="dialog-body">
          {children ?? <p>This cannot be undone.</p>}
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {errorMessage(error)}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" data-cancel onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button danger" onClick={onConfirm} disabled={busy || !canConfirm}>
            {busy ? busyLabel : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
