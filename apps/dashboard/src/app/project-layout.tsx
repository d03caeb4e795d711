import { NavLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { isApiError } from '../api/api-error';
import { useProject, useProjects } from '../api/projects';
import type { Project } from '../api/types';
import { ErrorState, Loading } from '../ui/states';
import { NotFoundPage } from '../ui/not-found-page';

const SECTIONS = [
  ['endpoints', 'Workshop'],
  ['functions', 'Functions'],
  ['schedules', 'Schedules'],
  ['data', 'Data'],
  ['keys', 'Authentication'],
  ['logs', 'Logs'],
  ['settings', 'Settings'],
  ['docs', 'API docs'],
] as const;

/** `Project` switcher: the same section of another project. */
function ProjectSwitcher({ current }: { current: Project }) {
  const projects = useProjects();
  const navigate = useNavigate();
  const location = useLocation();
  const section = location.pathname.split('/')[3] ?? 'endpoints';
  const list = projects.data ?? [current];
  return (
    <select
      aria-label="Project"
      className="project-switcher"
      value={current.id}
      onChange={(event) => void navigate(`/projects/${event.target.value}/${section}`)}
    >
      {list.map((project) => (
        <option key={project.id} value={project.id}>
          {project.name}
        </option>
      ))}
    </select>
  );
}

/** Everything under /projects/:projectId: the switcher and the section navigation, then the page. */
export function ProjectLayout() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  if (project.isPending) return <Loading label="Loading the project…" />;
  if (isApiError(project.error) && project.error.status === 404) return <NotFoundPage what="project" />;
  if (project.error || !project.data) return <ErrorState error={project.error} onRetry={() => void project.refetch()} />;
  return (
    <div className="project">
      <aside className="project-aside">
        <ProjectSwitcher current={project.data} />
        <nav aria-label="Project sections" className="project-nav">
          {SECTIONS.map(([path, label]) => (
            <NavLink key={path} to={`/projects/${projectId}/${path}`}>
              {label}
            </NavLink>
          ))}
        </nav>
      </aside>
      <div className="project-main" id="content" tabIndex={-1}>
        <Outlet context={project.data} />
      </div>
    </div>
  );
}
