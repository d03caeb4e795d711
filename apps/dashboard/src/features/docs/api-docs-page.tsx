import { apiDescriptionUrl, useApiDescription } from '../../api/api-description';
import { useCurrentProject } from '../../ui/use-current-project';
import { EmptyState, QueryState } from '../../ui/states';
import { McpSection } from './mcp-section';
import { OperationCard } from './operation-card';
import { operationsOf } from './operations';

/** `/projects/:id/docs`: the project's live endpoints as its OpenAPI document describes them. */
export function ApiDocsPage() {
  const project = useCurrentProject();
  const description = useApiDescription(project.id);
  return (
    <section className="page" aria-labelledby="docs-title">
      <div className="page-header">
        <div>
          <h1 id="docs-title">API docs</h1>
          <p className="muted">
            The live endpoints of {project.name}, at <code>{project.base_url}</code> (also under <code>/api</code>). Drafts appear once deployed.
          </p>
        </div>
        <a className="button secondary" href={apiDescriptionUrl(project.id)} download={`${project.subdomain}-openapi.json`}>
          Download OpenAPI JSON
        </a>
      </div>
      <QueryState query={description} label="Loading the API description…">
        {(doc) => {
          const operations = operationsOf(doc);
          if (operations.length === 0)
            return (
              <EmptyState title="No live endpoints">
                <span>Deploy an endpoint in the Workshop and it is described here.</span>
              </EmptyState>
            );
          return (
            <>
              {operations.map((op) => (
                <OperationCard key={`${op.method} ${op.path}`} op={op} />
              ))}
              <McpSection project={project} operations={operations} />
            </>
          );
        }}
      </QueryState>
      <p className="muted">
        The same document is public at <code>{project.base_url}/_openapi.json</code>
        {project.require_auth ? ' for any key of this project (Require Authentication is on)' : ''}, for client generators.
      </p>
    </section>
  );
}
