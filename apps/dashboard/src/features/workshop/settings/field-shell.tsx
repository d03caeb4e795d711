import type { Diagnostic } from '@flowgate/flow-engine';
import { useId, type ReactNode } from 'react';

/** What a control needs to be labelled and to carry its field's problems (docs/dashboard.md conventions). */
export interface ControlProps {
  id: string;
  labelId: string;
  invalid: boolean;
  describedBy: string | undefined;
}

/**
 * One labelled setting with the problems the compile found in it, beside it; `data-field-key`
 * lets a clicked problem focus the control.
 */
export function FieldShell({
  label,
  fieldKey,
  problems,
  hint,
  children,
}: {
  label: string;
  fieldKey: string;
  problems: readonly Diagnostic[];
  hint?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-problem`;
  const hintId = `${id}-hint`;
  const errors = problems.filter((problem) => problem.severity === 'error');
  const describedBy = [problems.length > 0 ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="ws-field" data-field-key={fieldKey}>
      <label id={`${id}-label`} htmlFor={id}>
        {label}
      </label>
      {children({ id, labelId: `${id}-label`, invalid: errors.length > 0, describedBy })}
      {problems.length > 0 && (
        <span id={errorId} className={errors.length > 0 ? 'ws-field-error' : 'ws-field-warning'}>
          {problems.map((problem) => problem.message.replace(/^[^:]+\([^)]*\): /, '')).join(' ')}
        </span>
      )}
      {hint && (
        <span id={hintId} className="ws-field-hint">
          {hint}
        </span>
      )}
    </div>
  );
}
