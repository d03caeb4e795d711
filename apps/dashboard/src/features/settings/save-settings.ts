import { ApiError } from '../../api/api-error';
import type { Integration, Project, ProjectChanges } from '../../api/types';

export interface SettingsDraft {
  name: string;
  subdomain: string;
  requireAuth: boolean;
  textApiKey: string;
  emailApiKey: string;
  domains: string;
}

export type SettingsField = 'name' | 'subdomain' | 'textApiKey' | 'emailApiKey' | 'domains';

export const draftOf = (project: Project, integrations: Integration[]): SettingsDraft => ({
  name: project.name,
  subdomain: project.subdomain,
  requireAuth: project.require_auth,
  textApiKey: '',
  emailApiKey: '',
  domains: (integrations.find((i) => i.kind === 'email')?.verified_domains ?? []).join(', '),
});

export const parseDomains = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((domain) => domain.trim())
    .filter(Boolean);

/** Only what changed goes to the server (a rename must not republish the project). */
export function projectChanges(project: Project, draft: SettingsDraft): ProjectChanges | null {
  const changes: ProjectChanges = {};
  if (draft.name.trim() !== project.name) changes.name = draft.name.trim();
  if (draft.subdomain.trim().toLowerCase() !== project.subdomain) changes.subdomain = draft.subdomain.trim().toLowerCase();
  if (draft.requireAuth !== project.require_auth) changes.require_auth = draft.requireAuth;
  return Object.keys(changes).length ? changes : null;
}

/** The form field a failed request concerns, from the server's `details` (else the group's API key). */
export function fieldOfError(step: 'project' | 'text' | 'email', error: unknown): { field: SettingsField; message: string } | null {
  if (!(error instanceof ApiError)) return null;
  if (step === 'project') {
    for (const field of ['name', 'subdomain'] as const) {
      const message = error.fieldMessage(field);
      if (message) return { field, message: `${field === 'name' ? 'Project name' : 'Subdomain'} ${message}` };
    }
    return null;
  }
  if (step === 'email' && error.fieldMessage('verified_domains')) return { field: 'domains', message: `Domain ${error.fieldMessage('verified_domains')}` };
  const message = error.fieldMessage('api_key') ?? (error.status === 400 ? error.message : null);
  return message ? { field: step === 'text' ? 'textApiKey' : 'emailApiKey', message } : null;
}
