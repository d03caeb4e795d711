import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api } from '../../../api/client';
import type { FunctionTestRunBody } from '../../../api/types';
import { inputsBody } from '../model/function-doc';
import { parseValueText } from '../model/template-value';
import { settingsOf, START_TYPE, type FunctionInputDraft } from '../model/workshop-document';
import { useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { functionRunOf } from './function-run';
import { RunFailure, TestResult, TextField } from './test-result';
import { useTraceStore } from './trace-store';

/**
 * A function's `Test`: one field per input (labelled by its name; empty takes the default), run
 * against the editor's current flow and inputs, saved or not; the answer is what Return gave,
 * and the trace the function's own blocks.
 */
export function FunctionTestPanel({ projectId, functionId, onClose }: { projectId: string; functionId: string; onClose(): void }) {
  const store = useWorkshopStore();
  const inputs = useWorkshop((state) => settingsOf(state.doc, 'function').inputs);
  const [args, setArgs] = useState<Record<string, string>>({});
  const [sendEmail, setSendEmail] = useState(false);
  const [tried, setTried] = useState(false);
  const formId = useId();
  const answerRef = useRef<HTMLDivElement>(null);
  const run = useMutation({
    mutationFn: (body: FunctionTestRunBody) => api('POST /v1/projects/{projectId}/functions/{functionId}/test-runs', { params: { projectId, functionId }, body }),
  });
  const saved = useWorkshop((state) => state.saved);
  const { reset } = run;
  useEffect(() => reset(), [saved, reset]);
  useEffect(() => () => useTraceStore.getState().clear(), []);

  // A required input without a default would reach the flow as null: asked for here instead.
  const missing = (input: FunctionInputDraft) => input.name !== '' && input.required && input.default === undefined && (args[input.name] ?? '') === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const doc = store.getState().doc;
    const settings = settingsOf(doc, 'function');
    setTried(true);
    if (settings.inputs.some(missing)) return;
    const values = Object.fromEntries(
      settings.inputs.filter((input) => input.name && (args[input.name] ?? '') !== '').map((input) => [input.name, input.type === 'string' ? args[input.name]! : parseValueText(args[input.name]!)]),
    );
    run.mutate(
      { flow: { nodes: doc.nodes, edges: doc.edges } as FunctionTestRunBody['flow'], inputs: inputsBody(settings.inputs), args: values as FunctionTestRunBody['args'], send_email: sendEmail },
      {
        onSuccess: (answer) => {
          const startId = doc.nodes.find((node) => node.type === START_TYPE)?.id ?? START_TYPE;
          useTraceStore.getState().show(functionId, functionRunOf(answer, startId), doc);
          requestAnimationFrame(() => answerRef.current?.scrollIntoView?.({ block: 'nearest' }));
        },
      },
    );
  };

  return (
    <section className="ws-test tr-panel" aria-label="Test">
      <div className="tr-head">
        <h2 className="ws-panel-title">Test</h2>
        <button type="submit" form={formId} className="ws-button ws-primary" disabled={run.isPending}>
          {run.isPending ? 'Running…' : 'Run test'}
        </button>
        <button type="button" className="ws-button" onClick={onClose}>
          Close
        </button>
      </div>
      {run.error && <RunFailure error={run.error} />}
      <form id={formId} className="ws-form tr-form" onSubmit={submit}>
        {inputs.filter((input) => input.name).length === 0 && <p className="ws-muted">This function takes no inputs: Run test calls it as it is.</p>}
        {inputs
          .filter((input) => input.name)
          .map((input) => (
            <TextField
              key={input.name}
              label={input.name}
              placeholder={input.default !== undefined ? `default ${JSON.stringify(input.default)}` : input.type === 'string' ? 'text' : `${input.type} as JSON`}
              value={args[input.name] ?? ''}
              error={tried && missing(input) ? `${input.name} is required: give it a value.` : undefined}
              onChange={(value) => setArgs({ ...args, [input.name]: value })}
            />
          ))}
        <label className="tr-check">
          <input type="checkbox" checked={sendEmail} onChange={(event) => setSendEmail(event.target.checked)} /> Send emails for real
        </label>
      </form>
      {!run.error && <TestResult resourceId={functionId} answerRef={answerRef} />}
    </section>
  );
}
