import { type ReactNode, useId, useRef } from 'react';
import { errorMessage } from '../api/api-error';
import { useFocusTrap } from './use-focus-trap';

/**
 * Confirmation of a destructive action: an `alertdialog` with `Delete` and `Cancel`; focus
 * starts on Cancel so that Enter alone never deletes. `canConfirm` gates Delete (e.g. typing a name).
 */
export function ConfirmDialog({
  title,
  children,
  onConfirm,
  onCancel,
  busy = false,
  error,
  canConfirm = true,
}: {
  title: string;
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  error?: unknown;
  canConfirm?: boolean;
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
            {busy ? 'Deleting…' : 'Delete'}
          </button>
        </div>
      </div>
    </div>
  );
}
