import type { Diagnostic } from '@flowgate/flow-engine';
import { useMemo } from 'react';
import { blockFields } from '../model/block-fields';
import { SETTINGS_TITLES } from '../model/owner-doc';
import type { WorkshopDoc } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { mergeProblems } from './diagnostic-lookup';

/** Every finding of the browser's compile and of the last Deploy; a click goes to the block and field. */
export function ProblemsPanel() {
  const diagnostics = useWorkshop((state) => state.diagnostics);
  const serverProblems = useWorkshop((state) => state.serverProblems);
  const requestFocus = useWorkshop((state) => state.requestFocus);
  const doc = useWorkshop((state) => state.doc);
  const problems = useMemo(() => mergeProblems(serverProblems, diagnostics), [serverProblems, diagnostics]);
  const errors = problems.filter((problem) => problem.severity === 'error').length;

  return (
    <section className="ws-problems" aria-label="Problems">
      <h2 className="ws-panel-title">
        Problems{' '}
        <span className="ws-count">
          {errors} {errors === 1 ? 'error' : 'errors'}, {problems.length - errors} {problems.length - errors === 1 ? 'warning' : 'warnings'}
        </span>
      </h2>
      {problems.length === 0 ? (
        <p className="ws-muted">No problems: this flow can be deployed.</p>
      ) : (
        <ul className="ws-problem-list">
          {problems.map((problem, index) => (
            <li key={`${problem.code}-${problem.node_id}-${problem.field}-${index}`}>
              <button type="button" className={`ws-problem ws-${problem.severity}`} onClick={() => requestFocus(problem.node_id ?? 'start', problem.field)}>
                <span className="ws-severity" aria-hidden="true">
                  {problem.severity === 'error' ? '✕' : '!'}
                </span>
                <span className="ws-visually-hidden">{problem.severity}: </span>
                <span>
                  {problem.message}
                  {fieldTitle(doc, problem) && <span className="ws-problem-field"> — {fieldTitle(doc, problem)}</span>}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The title of the field a problem is about (the label the settings panel shows), if any. */
function fieldTitle(doc: WorkshopDoc, problem: Diagnostic): string | null {
  const key = problem.field?.split('.')[0];
  if (!key) return null;
  if (problem.node_id === null) return SETTINGS_TITLES[doc.settings.kind][key] ?? null;
  const type = doc.nodes.find((node) => node.id === problem.node_id)?.type;
  return (type && blockFields(type).find((field) => field.key === key)?.title) ?? null;
}
