import type { JsonValue } from '@flowgate/flow-engine';
import { atField } from '../diagnostics/diagnostic-lookup';
import { CodeEditor } from './code-editor';
import type { StructuredFieldProps } from './field-control';
import { FieldShell } from './field-shell';

/** Run Code's code: a labelled JavaScript editor with the compile's problems at their line and beside it. */
export function CodeField({ field, nodeId, value, onChange, diagnostics, inputNames }: StructuredFieldProps & { inputNames: readonly string[] }) {
  const problems = atField(diagnostics, nodeId, field.key);
  return (
    <FieldShell label={field.title} fieldKey={field.key} problems={problems} hint="The body of a function: input.NAME reads an input; return the result.">
      {(control) => <CodeEditor control={control} value={typeof value === 'string' ? value : ''} onChange={onChange} problems={problems} inputNames={inputNames} />}
    </FieldShell>
  );
}

/** The names of Run Code's inputs, completed after `input.` in the editor. */
export function inputNames(inputs: JsonValue | undefined): string[] {
  if (!Array.isArray(inputs)) return [];
  return inputs.flatMap((input) => (input !== null && typeof input === 'object' && !Array.isArray(input) && typeof input.name === 'string' && input.name !== '' ? [input.name] : []));
}
