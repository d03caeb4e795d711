import { type ComponentProps, type ReactNode, useId } from 'react';

/**
 * A labelled input with its hint and error beside it: an error sets `aria-invalid` and is
 * referenced by `aria-describedby`, so a screen reader reads it with the field.
 */
export function Field({
  label,
  error,
  hint,
  status,
  ...input
}: { label: string; error?: string | null; hint?: ReactNode; status?: ReactNode } & ComponentProps<'input'>) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null, status ? `${id}-status` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {status && (
        <span id={`${id}-status`} className="field-status">
          {status}
        </span>
      )}
      {error && (
        <span id={errorId} className="field-error">
          {error}
        </span>
      )}
      {hint && (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      )}
    </div>
  );
}
