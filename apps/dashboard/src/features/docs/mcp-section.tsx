import type { Project } from '../../api/types';
import { CopySnippet } from './copy-snippet';
import type { OperationView } from './operations';

/** The project as an MCP server: its URL, the tools it offers, a client configuration to paste. */
export function McpSection({ project, operations }: { project: Pick<Project, 'base_url' | 'subdomain' | 'require_auth'>; operations: readonly OperationView[] }) {
  const url = `${project.base_url}/_mcp`;
  const tools = operations.filter((op) => op.mcp !== null);
  // Listing the tools needs a key under Require Authentication; calling one, the key its endpoint needs.
  const needsKey = project.require_auth || tools.some((op) => op.key !== 'none');
  const server = { type: 'http', url, ...(needsKey ? { headers: { Authorization: 'Bearer <your key>' } } : {}) };
  const configuration = JSON.stringify({ mcpServers: { [project.subdomain]: server } }, null, 2);
  return (
    <section className="card operation" aria-labelledby="mcp-title">
      <h2 id="mcp-title">MCP</h2>
      <p className="muted">
        AI agents use this project’s endpoints as tools through the Model Context Protocol (Streamable HTTP). Tool calls need the key each endpoint needs and
        count against its rate limit.
      </p>
      <CopySnippet label="MCP URL" code={url} />
      <section aria-labelledby="mcp-tools-title">
        <h3 id="mcp-tools-title">Tools</h3>
        {tools.length === 0 ? (
          <p className="muted">No tools yet: turn on “Expose as MCP tool” in an endpoint’s settings and deploy it.</p>
        ) : (
          <ul className="fields" aria-label="MCP tools">
            {tools.map((op) => (
              <li key={op.id}>
                <code>{op.id}</code> <span className="muted">{op.mcp}</span>{' '}
                <span className="muted">
                  ({op.method} {op.path})
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <CopySnippet label="client configuration" title="Client configuration" code={configuration} />
      {needsKey && <p className="muted">Replace &lt;your key&gt; with a key of this project (Authentication).</p>}
    </section>
  );
}
