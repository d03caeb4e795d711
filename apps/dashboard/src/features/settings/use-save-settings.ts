import { useState } from 'react';
import { usePutIntegration } from '../../api/integrations';
import { useUpdateProject } from '../../api/projects';
import type { Integration, Project } from '../../api/types';
import { fieldOfError, parseDomains, projectChanges, type SettingsDraft, type SettingsField } from './save-settings';

/**
 * Save: the project's changes, then each integration whose key or domains were edited. The first
 * failure stops and is reported at its field; the form keeps every value the user typed.
 */
export function useSaveSettings(project: Project, integrations: Integration[]) {
  const update = useUpdateProject(project.id);
  const put = usePutIntegration(project.id);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<SettingsField, string>>>({});
  const [formError, setFormError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const email = integrations.find((i) => i.kind === 'email');

  const save = async (draft: SettingsDraft): Promise<boolean> => {
    setSaving(true);
    setFieldErrors({});
    setFormError(null);
    let step: 'project' | 'text' | 'email' = 'project';
    try {
      const changes = projectChanges(project, draft);
      if (changes) await update.mutateAsync(changes);
      step = 'text';
      if (draft.textApiKey.trim()) await put.mutateAsync({ kind: 'text-generation', body: { provider: 'anthropic', api_key: draft.textApiKey.trim() } });
      step = 'email';
      const domains = parseDomains(draft.domains);
      const domainsChanged = domains.join(',') !== (email?.verified_domains ?? []).join(',');
      if (draft.emailApiKey.trim() || (domainsChanged && (email || domains.length))) {
        await put.mutateAsync({ kind: 'email', body: { provider: 'sendgrid', api_key: draft.emailApiKey.trim() || undefined, verified_domains: domains } });
      }
      return true;
    } catch (error) {
      const field = fieldOfError(step, error);
      if (field) setFieldErrors({ [field.field]: field.message });
      else setFormError(error);
      return false;
    } finally {
      setSaving(false);
    }
  };
  return { save, saving, fieldErrors, formError };
}
