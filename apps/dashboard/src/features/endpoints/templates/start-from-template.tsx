import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Endpoint } from '../../../api/types';
import { useAnnounce } from '../../../ui/announcer';
import { Dialog } from '../../../ui/dialog';
import { FormError } from '../../../ui/form-error';
import { TEMPLATES, type FlowTemplate } from '.';
import { useCreateFromTemplate } from './use-create-from-template';

/** `Start from a template`: a dialog of starting points; choosing one creates its drafts and opens the first. */
export function StartFromTemplate({ projectId, endpoints }: { projectId: string; endpoints: Endpoint[] }) {
  const [open, setOpen] = useState(false);
  const create = useCreateFromTemplate(projectId, endpoints);
  const announce = useAnnounce();
  const navigate = useNavigate();
  const choose = (template: FlowTemplate) =>
    create.mutate(template, {
      onSuccess: (first) => {
        announce(`${template.title}: created from a template`);
        void navigate(`/projects/${projectId}/${first.kind}/${first.id}`);
      },
    });
  return (
    <>
      <button type="button" className="button secondary" onClick={() => setOpen(true)}>
        Start from a template
      </button>
      {open && (
        <Dialog title="Start from a template" onClose={() => setOpen(false)} wide>
          <p className="muted">Each one creates drafts (endpoints, or a schedule) that work as they are: open, Test, Deploy, then change what you like.</p>
          <ul className="template-list">
            {TEMPLATES.map((template) => (
              <TemplateChoice key={template.title} template={template} busy={create.isPending} onChoose={() => choose(template)} />
            ))}
          </ul>
          <FormError error={create.error} />
        </Dialog>
      )}
    </>
  );
}

function TemplateChoice({ template, busy, onChoose }: { template: FlowTemplate; busy: boolean; onChoose(): void }) {
  const descriptionId = useId();
  return (
    <li>
      <button type="button" className="template-choice" aria-label={template.title} aria-describedby={descriptionId} disabled={busy} onClick={onChoose}>
        <strong>{template.title}</strong>
        <span id={descriptionId}>
          {template.description}
          {template.needs && ` Needs ${template.needs}.`}
        </span>
        <code>{[...template.endpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`), ...(template.schedules ?? []).map((schedule) => `Schedule ${schedule.cron}`)].join(' · ')}</code>
      </button>
    </li>
  );
}
