import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage, isApiError } from '../../../api/api-error';
import { useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { BODY_METHODS, loadForm, movedPath, runBody, saveForm, type TestRequestForm } from './test-request';
import { formatMs, statusLine, TraceDetails, outputText } from './trace-output';
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
 * `Test` (DASHBOARD.md "Test runs"): a sample request run against the editor's current flow,
 * saved or not; the response here, each block's outcome on the canvas, the selected block's
 * full output below.
 */
export function TestPanel({ projectId, endpointId, replay, onClose }: TestPanelProps) {
  const store = useWorkshopStore();
  const settings = useWorkshop((state) => state.doc.settings);
  const [form, setForm] = useState<TestRequestForm>(() => replay ?? loadForm(endpointId, settings));
  const [problem, setProblem] = useState<{ field: 'Headers' | 'Body'; message: string } | null>(null);
  const run = useTestRun(projectId, endpointId);
  const result = useTraceStore((state) => (state.endpointId === endpointId ? state.result : null));
  const selected = useWorkshop((state) => (state.selectedNodeIds.length === 1 ? state.selectedNodeIds[0]! : null));
  const selectedEntry = useTraceStore((state) => (selected === null ? undefined : state.byNode.get(selected)));
  const ids = { problem: useId() };
  const answerRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const hasBody = BODY_METHODS.has(settings.method);

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
      <h2 className="ws-panel-title">Test</h2>
      <form ref={formRef} className="ws-form tr-form" onSubmit={submit}>
        <Field label="Method">{(id) => <input id={id} type="text" value={settings.method} readOnly />}</Field>
        <Field label="Path">{(id) => <input id={id} type="text" spellCheck={false} value={form.path} onChange={(event) => set({ path: event.target.value })} />}</Field>
        {settings.query_params
          .filter((param) => param.key)
          .map((param) => (
            <Field key={param.key} label={param.key}>
              {(id) => (
                <input
                  id={id}
                  type="text"
                  spellCheck={false}
                  value={form.query[param.key] ?? param.default ?? ''}
                  onChange={(event) => set({ query: { ...form.query, [param.key]: event.target.value } })}
                />
              )}
            </Field>
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
        <div className="tr-actions">
          <button type="submit" className="ws-button ws-primary" disabled={run.isPending}>
            {run.isPending ? 'Running…' : 'Run test'}
          </button>
          <button type="button" className="ws-button" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
      {run.error && <RunFailure error={run.error} />}
      {result && !run.error && (
        <div className="tr-result" role="region" aria-label="Test result" ref={answerRef}>
          <h3 className="tr-heading">
            Response <span className={`tr-code tr-code-${Math.floor(result.response.status / 100)}xx`}>{result.response.status}</span>
            <span className="ws-muted">{formatMs(result.duration_ms)} in all</span>
          </h3>
          <pre className="tr-output" aria-label="Response body">
            {outputText(result.response.body, true)}
          </pre>
          {selected !== null && selectedEntry ? (
            <div className="tr-selected" role="region" aria-label="Selected block output">
              <h3 className="tr-heading">{selectedEntry.label}</h3>
              <TraceDetails entry={selectedEntry} />
            </div>
          ) : (
            <TraceList onPick={(id) => store.getState().select([id])} />
          )}
        </div>
      )}
    </section>
  );
}

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="ws-field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
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

/** The blocks in the order they ran; picking one selects it on the canvas (its full output shows here). */
function TraceList({ onPick }: { onPick(nodeId: string): void }) {
  const trace = useTraceStore((state) => state.result?.trace ?? []);
  return (
    <ol className="tr-list" aria-label="Blocks run">
      {trace.map((entry) => (
        <li key={entry.node_id}>
          <button type="button" className={`tr-step tr-${entry.status}`} onClick={() => onPick(entry.node_id)}>
            <span className="tr-step-label">{entry.label}</span>
            <span className="tr-step-status">{statusLine(entry)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}

/** A refused run: the flow's problems (400 invalid_flow), the limit (429), or the connection. */
function RunFailure({ error }: { error: unknown }) {
  const details = isApiError(error) ? error.details : [];
  return (
    <div className="tr-failure" role="alert">
      <p>{errorMessage(error)}</p>
      {details.length > 0 && (
        <ul>
          {details.map((detail, index) => (
            <li key={index}>{detail.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
