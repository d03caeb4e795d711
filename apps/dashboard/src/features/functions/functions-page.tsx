import { useState } from 'react';
import { isApiError } from '../../api/api-error';
import { useDeleteFunction, useFunctions } from '../../api/functions';
import type { FlowFunction } from '../../api/types';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ListState } from '../../ui/states';
import { useCurrentProject } from '../../ui/use-current-project';
import { useDocumentTitle } from '../../ui/use-document-title';
import { usePendingDelete } from '../../ui/use-pending-delete';
import { FunctionsTable } from './functions-table';
import { NewFunctionDialog } from './new-function-dialog';

/** `/projects/:id/functions`: the project's functions; `New function` names one and opens its Workshop. */
export function FunctionsPage() {
  const project = useCurrentProject();
  useDocumentTitle('Functions', project.name);
  const functions = useFunctions(project.id);
  const remove = useDeleteFunction(project.id);
  const deletion = usePendingDelete<FlowFunction>(remove, 'Function');
  const [creating, setCreating] = useState(false);

  return (
    <section className="page" aria-labelledby="functions-title">
      <div className="page-header">
        <div>
          <h1 id="functions-title">Functions</h1>
          <p className="muted">Flows with typed inputs that every endpoint, schedule and function of this project can run with Call Function.</p>
        </div>
        <div className="page-actions">
          <button type="button" className="button" onClick={() => setCreating(true)}>
            New function
          </button>
        </div>
      </div>
      <ListState query={functions} label="Loading functions…" emptyTitle="No functions yet" emptyHint="New function names one and opens it in the Workshop; endpoints then call it with the block Call Function.">
        {(items) => <FunctionsTable projectId={project.id} functions={items} onDelete={deletion.ask} />}
      </ListState>
      {creating && <NewFunctionDialog projectId={project.id} onClose={() => setCreating(false)} />}
      {deletion.pending && (
        <ConfirmDialog
          title={`Delete function ${deletion.pending.name}?`}
          onConfirm={deletion.confirm}
          onCancel={deletion.cancel}
          busy={remove.isPending}
          // The reason it is in use gets a paragraph of its own below.
          error={isApiError(remove.error) && remove.error.code === 'function_in_use' ? undefined : remove.error}
        >
          <p>Its versions are removed and flows that call it can no longer be deployed. This cannot be undone.</p>
          {isApiError(remove.error) && remove.error.code === 'function_in_use' && (
            <div className="field-error" role="alert">
              <p>
                <strong>It is still in use, so it was not deleted.</strong> {remove.error.message}
              </p>
              <p>Remove its Call Function blocks from those flows and deploy them (or undeploy them) first.</p>
            </div>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
