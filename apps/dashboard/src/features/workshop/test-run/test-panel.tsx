import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { settingsOf } from '../model/workshop-document';
import { useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { BODY_METHODS, loadForm, movedPath, runBody, saveForm, type TestRequestForm } from './test-request';
import { Field, RunFailure, TestResult, TextField } from './test-result';
import { useTraceStore } from './trace-store';
import { useTestRun } from './use-test-run';

interface TestPanelProps {
  projectId: string;
  endpointId: string;
  /** A logged request to replay (Logs → `Replay in Workshop`); else the last request kept for this endpoint. */
  replay: TestRequestForm | null;
  onClose(): void;
}

/**
 * `Test` (docs/dashboard.md "Test runs"): a sample request run against the editor's current flow,
 * saved or not; the response here, each block's outcome on the canvas, the selected block's
 * full output below.
 */
export function TestPanel({ projectId, endpointId, replay, onClose }: TestPanelProps) {
  const store = useWorkshopStore();
  const settings = useWorkshop((state) => settingsOf(state.doc, 'endpoint'));
  const [form, setForm] = useState<TestRequestForm>(() => replay ?? loadForm(endpointId, settings));
  const [problem, setProblem] = useState<{ field: 'Headers' | 'Body'; message: string } | null>(null);
  const run = useTestRun(projectId, endpointId);
  const ids = { problem: useId(), form: useId() };
  const answerRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const hasBody = BODY_METHODS.has(settings.method);
  const saved = useWorkshop((state) => state.saved);
  const { reset } = run;
  useEffect(() => reset(), [saved, reset]);

  // The panel opens at the top of its form (not wherever a previous panel's scroll left it).
  useEffect(() => {
    if (panelRef.current) panelRef.current.scrollTop = 0;
  }, []);
  // The canvas shows the trace while the panel is open.
  useEffect(() => () => useTraceStore.getState().clear(), []);
  useEffect(() => setForm((current) => (current.method === settings.method ? current : { ...current, method: settings.method })), [settings.method]);
  // The endpoint's path edited while the panel is open: the request follows it.
  const shownPath = useRef(settings.path);
  useEffect(() => {
    const before = shownPath.current;
    shownPath.current = settings.path;
    if (before !== settings.path) setForm((current) => ({ ...current, path: movedPath(current.path, before, settings.path) }));
  }, [settings.path]);

  // A replayed log (Logs → `Replay in Workshop`) runs at once: the second click shows what failed.
  const replayed = useRef(false);
  useEffect(() => {
    if (replay === null || replayed.current) return;
    replayed.current = true;
    formRef.current?.requestSubmit();
  }, [replay]);

  const set = (patch: Partial<TestRequestForm>) => setForm((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const doc = store.getState().doc;
    const body = runBody(form, doc);
    if (!body.ok) return setProblem({ field: body.field, message: body.message });
    setProblem(null);
    saveForm(endpointId, form);
    run.mutate(body.value, {
      onSuccess: (answer) => {
        useTraceStore.getState().show(endpointId, answer, doc);
        // The answer is below the form: bring it into the panel's view.
        requestAnimationFrame(() => answerRef.current?.scrollIntoView?.({ block: 'nearest' }));
      },
    });
  };

  return (
    <section ref={panelRef} className="ws-test tr-panel" aria-label="Test">
      <div className="tr-head">
        <h2 className="ws-panel-title">Test</h2>
        {/* Run test first, always in view however long the request form is. */}
        <button type="submit" form={ids.form} className="ws-button ws-primary" disabled={run.isPending}>
          {run.isPending ? 'Running…' : 'Run test'}
        </button>
        <button type="button" className="ws-button" onClick={onClose}>
          Close
        </button>
      </div>
      {/* A refusal shows first, where it is seen; the next run or a Save clears it. */}
      {run.error && <RunFailure error={run.error} />}
      <form ref={formRef} id={ids.form} className="ws-form tr-form" onSubmit={submit}>
        <Field label="Method">{(id) => <input id={id} type="text" value={settings.method} readOnly />}</Field>
        <Field label="Path">{(id) => <input id={id} type="text" spellCheck={false} value={form.path} onChange={(event) => set({ path: event.target.value })} />}</Field>
        {settings.query_params
          .filter((param) => param.key)
          .map((param) => (
            <TextField key={param.key} label={param.key} value={form.query[param.key] ?? param.default ?? ''} onChange={(value) => set({ query: { ...form.query, [param.key]: value } })} />
          ))}
        <TextArea label="Headers" rows={2} placeholder="x-request-id: 42" value={form.headers} onChange={(headers) => set({ headers })} problem={problem} problemId={ids.problem} />
        {hasBody && (
          <TextArea label="Body" rows={4} placeholder='{"name": "Ada"}' value={form.body} onChange={(body) => set({ body })} problem={problem} problemId={ids.problem} />
        )}
        <label className="tr-check">
          <input type="checkbox" checked={form.sendEmail} onChange={(event) => set({ sendEmail: event.target.checked })} /> Send emails for real
        </label>
        {problem && (
          <p id={ids.problem} className="ws-field-error" role="alert">
            {problem.message}
          </p>
        )}
      </form>
      {!run.error && <TestResult resourceId={endpointId} answerRef={answerRef} />}
    </section>
  );
}

/** Headers or Body: free text, marked when the panel found it wrong. */
function TextArea(props: {
  label: 'Headers' | 'Body';
  rows: number;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  problem: { field: string } | null;
  problemId: string;
}) {
  const wrong = props.problem?.field === props.label;
  return (
    <Field label={props.label}>
      {(id) => (
        <textarea
          id={id}
          className="ws-json"
          rows={props.rows}
          spellCheck={false}
          placeholder={props.placeholder}
          value={props.value}
          aria-invalid={wrong || undefined}
          aria-describedby={wrong ? props.problemId : undefined}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

