import { type FormEvent, useId, useState } from 'react';
import { type IntegrationKind, useRemoveIntegration } from '../../api/integrations';
import type { Integration, Project } from '../../api/types';
import { useAnnounce } from '../../ui/announcer';
import { Field } from '../../ui/field';
import { useSubdomainCheck } from '../projects/use-subdomain-check';
import { IntegrationGroup } from './integration-group';
import { draftOf, type SettingsDraft } from './save-settings';
import { useSaveSettings } from './use-save-settings';
import { FormError } from '../../ui/form-error';
import { LeaveDialog, useLeaveGuard } from '../../ui/leave-guard';

export function SettingsForm({ project, integrations }: { project: Project; integrations: Integration[] }) {
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(project, integrations));
  const set = (changes: Partial<SettingsDraft>) => setDraft((current) => ({ ...current, ...changes }));
  const { save, saving, fieldErrors, formError } = useSaveSettings(project, integrations);
  const removeIntegration = useRemoveIntegration(project.id);
  const check = useSubdomainCheck(draft.subdomain, project.subdomain);
  const announce = useAnnounce();
  const switchId = useId();
  const byKind = (kind: IntegrationKind) => integrations.find((i) => i.kind === kind);
  const subdomainChanged = draft.subdomain.trim().toLowerCase() !== project.subdomain;
  // Leaving the page (another section, another project) with filled-in edits asks first.
  const blocker = useLeaveGuard(JSON.stringify(draft) !== JSON.stringify(draftOf(project, integrations)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (check.error) return;
    // Secrets leave the form once stored: the masked value is all that is shown from then on.
    if (await save(draft)) {
      set({ textApiKey: '', emailApiKey: '' });
      announce('Settings saved');
    }
  };
  const remove = (kind: IntegrationKind, label: string) =>
    removeIntegration.mutate(kind, { onSuccess: () => announce(`${label} integration removed`) });

  return (
    <form className="stack" onSubmit={(event) => void submit(event)} noValidate>
      <section className="card stack" aria-labelledby="general-title">
        <h2 id="general-title">General</h2>
        <Field label="Project Name" value={draft.name} maxLength={100} onChange={(e) => set({ name: e.target.value })} error={fieldErrors.name} />
        <Field
          label="Subdomain"
          value={draft.subdomain}
          spellCheck={false}
          autoCapitalize="off"
          onChange={(e) => set({ subdomain: e.target.value })}
          error={check.error ?? fieldErrors.subdomain}
          status={check.status}
        />
        {subdomainChanged && (
          <p className="warning">
            Changing the subdomain moves every endpoint to a new address: clients still calling <code>{project.base_url}</code> will break.
          </p>
        )}
        <div className="switch-row">
          <input id={switchId} type="checkbox" role="switch" checked={draft.requireAuth} onChange={(e) => set({ requireAuth: e.target.checked })} />
          <label htmlFor={switchId}>Require Authentication</label>
          <span className="muted">Every request needs a valid API key, even to endpoints with authentication none.</span>
        </div>
      </section>
      <IntegrationGroup
        title="Text generation"
        description="Anthropic API key for Generate Text blocks."
        integration={byKind('text-generation')}
        apiKey={draft.textApiKey}
        onApiKey={(textApiKey) => set({ textApiKey })}
        apiKeyError={fieldErrors.textApiKey}
        onRemove={() => remove('text-generation', 'Text generation')}
        removing={removeIntegration.isPending}
      />
      <IntegrationGroup
        title="Email"
        description="SendGrid API key for Send Email blocks."
        integration={byKind('email')}
        apiKey={draft.emailApiKey}
        onApiKey={(emailApiKey) => set({ emailApiKey })}
        apiKeyError={fieldErrors.emailApiKey}
        onRemove={() => remove('email', 'Email')}
        removing={removeIntegration.isPending}
      >
        <Field
          label="Verified domains"
          value={draft.domains}
          onChange={(e) => set({ domains: e.target.value })}
          error={fieldErrors.domains}
          hint="Sender domains verified with SendGrid, separated by commas (example.com, mail.example.com)."
        />
      </IntegrationGroup>
      <FormError error={formError || removeIntegration.error} />
      <div>
        <button type="submit" className="button" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
      {blocker.state === 'blocked' && <LeaveDialog blocker={blocker} what="This page" />}
    </form>
  );
}
