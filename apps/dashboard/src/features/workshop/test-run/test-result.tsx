import { useMemo, useId, type ReactNode, type RefObject } from 'react';
import { errorMessage, isApiError } from '../../../api/api-error';
import { useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { ConsoleLines, formatMs, statusLine, TraceDetails, outputText } from './trace-output';
import { traceTree, type TraceNode } from './trace-tree';
import { useTraceStore } from './trace-store';

/**
 * The last run's answer (status, `Response body`, total duration) and the blocks it ran, or the
 * selected block's full output: the same for an endpoint's and a function's test runs.
 */
export function TestResult({ resourceId, answerRef }: { resourceId: string; answerRef: RefObject<HTMLDivElement | null> }) {
  const store = useWorkshopStore();
  const result = useTraceStore((state) => (state.endpointId === resourceId ? state.result : null));
  const selected = useWorkshop((state) => (state.selectedNodeIds.length === 1 ? state.selectedNodeIds[0]! : null));
  const selectedEntry = useTraceStore((state) => (selected === null ? undefined : state.byNode.get(selected)));
  if (!result) return null;
  return (
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
  );
}

/** A value of the request (a query parameter, a function's input), labelled by its name; `error` shows under it. */
export function TextField({ label, value, placeholder, error, onChange }: { label: string; value: string; placeholder?: string; error?: string; onChange(value: string): void }) {
  return (
    <Field label={label}>
      {(id) => (
        <>
          <input id={id} type="text" spellCheck={false} placeholder={placeholder} value={value} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} onChange={(event) => onChange(event.target.value)} />
          {error && (
            <span id={`${id}-error`} className="ws-field-error">
              {error}
            </span>
          )}
        </>
      )}
    </Field>
  );
}

/** A labelled control of a test request. */
export function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="ws-field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}


/** The blocks in the order they ran; picking one selects it on the canvas (its full output shows here). */
function TraceList({ onPick }: { onPick(nodeId: string): void }) {
  const trace = useTraceStore((state) => state.result?.trace);
  const tree = useMemo(() => traceTree(trace ?? []), [trace]);
  return (
    <ol className="tr-list" aria-label="Blocks run">
      <TraceSteps nodes={tree} onPick={onPick} />
    </ol>
  );
}

/** Steps in order; a For Each's iterations under it (`Iteration 1`, …), each retry attempt under its block. */
function TraceSteps({ nodes, onPick }: { nodes: readonly TraceNode[]; onPick(nodeId: string): void }) {
  return (
    <>
      {nodes.map(({ entry, iterations }, index) => (
        <li key={index}>
          <button type="button" className={`tr-step tr-${entry.status}`} onClick={() => onPick(entry.node_id)}>
            <span className="tr-step-label">{entry.label}</span>
            <span className="tr-step-status">{statusLine(entry)}</span>
          </button>
          {entry.error && <p className="tr-error-text tr-step-error">{entry.error.message}</p>}
          <ConsoleLines entry={entry} />
          {entry.attempts && entry.attempts.length > 0 && (
            <ol className="tr-attempts" aria-label={`Attempts of ${entry.label}`}>
              {entry.attempts.map((attempt) => (
                <li key={attempt.attempt}>
                  Attempt {attempt.attempt}: {attempt.outcome}
                  {attempt.wait_ms > 0 ? `, then waited ${formatMs(attempt.wait_ms)}` : ''}
                </li>
              ))}
            </ol>
          )}
          {iterations.length > 0 && (
            <ol className="tr-iterations" aria-label={`Iterations of ${entry.label}`}>
              {iterations.map(({ iteration, steps }) => (
                <li key={iteration}>
                  <details open={iteration === 0}>
                    <summary>Iteration {iteration + 1}</summary>
                    <ol className="tr-list">
                      <TraceSteps nodes={steps} onPick={onPick} />
                    </ol>
                  </details>
                </li>
              ))}
              {entry.iterations_not_shown !== undefined && entry.iterations_not_shown > 0 && (
                <li className="tr-more">{entry.iterations_not_shown.toLocaleString('en-US')} more iterations not shown</li>
              )}
            </ol>
          )}
        </li>
      ))}
    </>
  );
}

/** A refused run: the flow's problems (400 invalid_flow), the limit (429), or the connection. */
export function RunFailure({ error }: { error: unknown }) {
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
