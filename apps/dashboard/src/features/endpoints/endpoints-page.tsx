import { useNavigate } from 'react-router';
import { useCreateEndpoint, useDeleteEndpoint, useEndpoints } from '../../api/endpoints';
import type { Endpoint } from '../../api/types';
import { useCurrentProject } from '../../ui/use-current-project';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ListState } from '../../ui/states';
import { usePendingDelete } from '../../ui/use-pending-delete';
import { EndpointsTable } from './endpoints-table';
import { blankEndpoint } from './endpoint-status';
import { DescribeEndpoint } from './describe-endpoint';
import { ImportEndpoint } from './import-endpoint';
import { StartFromTemplate } from './templates/start-from-template';
import { useDocumentTitle } from '../../ui/use-document-title';
import { FormError } from '../../ui/form-error';

/** `/projects/:id/endpoints`: the endpoint list; `New endpoint` makes a draft and opens the Workshop on it. */
export function EndpointsPage() {
  const project = useCurrentProject();
  useDocumentTitle('Endpoints', project.name);
  const endpoints = useEndpoints(project.id);
  const create = useCreateEndpoint(project.id);
  const remove = useDeleteEndpoint(project.id);
  const deletion = usePendingDelete<Endpoint>(remove, 'Endpoint');
  const deleting = deletion.pending;
  const navigate = useNavigate();

  const newEndpoint = () => {
    create.mutate(blankEndpoint(endpoints.data ?? []), { onSuccess: (endpoint) => void navigate(`/projects/${project.id}/endpoints/${endpoint.id}`) });
  };

  return (
    <section className="page" aria-labelledby="endpoints-title">
      <div className="page-header">
        <div>
          <h1 id="endpoints-title">Endpoints</h1>
          <p className="muted">
            Served at <code>{project.base_url}</code>
          </p>
        </div>
        <div className="page-actions">
          <ImportEndpoint projectId={project.id} />
          <StartFromTemplate projectId={project.id} endpoints={endpoints.data ?? []} />
          <button type="button" className="button" onClick={newEndpoint} disabled={create.isPending || endpoints.isPending}>
            {create.isPending ? 'Creating…' : 'New endpoint'}
          </button>
          <DescribeEndpoint projectId={project.id} endpoints={endpoints.data ?? []} />
        </div>
      </div>
      <FormError error={create.error} />
      <ListState query={endpoints} label="Loading endpoints…" emptyTitle="No endpoints yet" emptyHint="Start from a template to see a working endpoint, or New endpoint for an empty one; either opens it in the Workshop.">
        {(items) => <EndpointsTable projectId={project.id} endpoints={items} onDelete={deletion.ask} />}
      </ListState>
      {deleting && (
        <ConfirmDialog title={`Delete endpoint ${deleting.name}?`} onConfirm={deletion.confirm} onCancel={deletion.cancel} busy={remove.isPending} error={remove.error}>
          <p>
            <code>{deleting.method} {deleting.path}</code> stops answering at once and its versions are removed. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
