import { useIntegrations } from '../../api/integrations';
import { useCurrentProject } from '../../ui/use-current-project';
import { QueryState } from '../../ui/states';
import { DeleteProject } from './delete-project';
import { SecretsGroup } from './secrets/secrets-group';
import { SettingsForm } from './settings-form';
import { useDocumentTitle } from '../../ui/use-document-title';

/** `/projects/:id/settings`: name, subdomain, Require Authentication, integrations, Save; the secrets; deleting at the bottom. */
export function SettingsPage() {
  const project = useCurrentProject();
  useDocumentTitle('Settings', project.name);
  const integrations = useIntegrations(project.id);
  return (
    <section className="page" aria-labelledby="settings-title">
      <div className="page-header">
        <h1 id="settings-title">Settings</h1>
      </div>
      <QueryState query={integrations} label="Loading settings…">
        {(items) => <SettingsForm project={project} integrations={items} />}
      </QueryState>
      <SecretsGroup projectId={project.id} />
      <DeleteProject project={project} />
    </section>
  );
}
