import { useState } from 'react';
import { Link } from 'react-router';
import { useProjects } from '../../api/projects';
import { EmptyState, QueryState } from '../../ui/states';
import { NewProjectForm } from './new-project-form';
import { useDocumentTitle } from '../../ui/use-document-title';

/** `/projects`: the account's projects (name and base URL), and `New project`. */
export function ProjectsPage() {
  const projects = useProjects();
  useDocumentTitle('Projects');
  const [creating, setCreating] = useState(false);
  return (
    <section className="page" aria-labelledby="projects-title">
      <div className="page-header">
        <div>
          <h1 id="projects-title">Projects</h1>
          <p className="muted">Each project has its own address, endpoints, keys and logs.</p>
        </div>
        {!creating && (
          <button type="button" className="button" onClick={() => setCreating(true)}>
            New project
          </button>
        )}
      </div>
      {creating && <NewProjectForm onCancel={() => setCreating(false)} />}
      <QueryState query={projects} label="Loading projects…">
        {(items) =>
          items.length === 0 ? (
            creating ? null : (
              <EmptyState title="No projects yet">
                <span>Create one to get an address for your endpoints.</span>
              </EmptyState>
            )
          ) : (
            <ul className="project-list">
              {items.map((project) => (
                <li key={project.id}>
                  <Link to={`/projects/${project.id}/endpoints`} className="project-card">
                    <strong>{project.name}</strong>
                    <span className="muted">{project.base_url}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
