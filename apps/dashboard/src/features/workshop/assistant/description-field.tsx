import { forwardRef, useId } from 'react';

interface DescriptionFieldProps {
  value: string;
  onChange(value: string): void;
  /** Submitted empty: the field is marked and says what to do. */
  empty: boolean;
  rows: number;
  placeholder: string;
  readOnly?: boolean;
  /** The page's field styles: the Workshop's (`ws-field-error`) or the dialogs' (`field-error`). */
  errorClassName: string;
}

/** The textbox `Describe the endpoint` of the assistant's panel and of `Describe it instead`. */
export const DescriptionField = forwardRef<HTMLTextAreaElement, DescriptionFieldProps>(function DescriptionField(
  { value, onChange, empty, rows, placeholder, readOnly = false, errorClassName },
  ref,
) {
  const ids = { text: useId(), hint: useId() };
  return (
    <>
      <label htmlFor={ids.text}>Describe the endpoint</label>
      <textarea
        ref={ref}
        id={ids.text}
        rows={rows}
        value={value}
        readOnly={readOnly}
        placeholder={placeholder}
        aria-invalid={empty || undefined}
        aria-describedby={empty ? ids.hint : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {empty && (
        <p id={ids.hint} className={errorClassName} role="alert">
          Describe what the endpoint should do first.
        </p>
      )}
    </>
  );
});
