import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAssistantStatus } from '../../api/assistant';
import { useCreateEndpoint } from '../../api/endpoints';
import type { Endpoint } from '../../api/types';
import { Dialog } from '../../ui/dialog';
import { FormError } from '../../ui/form-error';
import { AssistantOff } from '../workshop/assistant/assistant-off';
import { DescriptionField } from '../workshop/assistant/description-field';
import { blankEndpoint } from './endpoint-status';

/**
 * `Describe it instead`, beside `New endpoint`: the description makes a new draft endpoint whose
 * Workshop opens with the assistant drafting it (the description travels in the navigation's state).
 */
export function DescribeEndpoint({ projectId, endpoints }: { projectId: string; endpoints: Endpoint[] }) {
  const [open, setOpen] = useState(false);
  const [prompt, setPrompt] = useState('');
  const [empty, setEmpty] = useState(false);
  const status = useAssistantStatus();
  const create = useCreateEndpoint(projectId);
  const navigate = useNavigate();
  const formId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!prompt.trim()) return setEmpty(true);
    create.mutate(blankEndpoint(endpoints), {
      onSuccess: (endpoint) => void navigate(`/projects/${projectId}/endpoints/${endpoint.id}`, { state: { describe: prompt.trim() } }),
    });
  };

  const off = status.data?.available === false;
  return (
    <>
      <button type="button" className="button secondary" onClick={() => setOpen(true)}>
        Describe it instead
      </button>
      {open && (
        <Dialog
          title="Describe a new endpoint"
          onClose={() => setOpen(false)}
          unsaved={prompt.trim() !== ''}
          footer={
            off ? undefined : (
              <button type="submit" form={formId} className="button" disabled={create.isPending}>
                {create.isPending ? 'Creating…' : 'Draft it'}
              </button>
            )
          }
        >
          {off ? (
            <AssistantOff />
          ) : (
            <form id={formId} className="stack" onSubmit={submit}>
              <p className="muted">A new draft endpoint opens in the Workshop, where the assistant drafts it; nothing is deployed until you do.</p>
              <div className="field">
                <DescriptionField
                  rows={5}
                  value={prompt}
                  onChange={setPrompt}
                  empty={empty}
                  placeholder="GET /orders: the newest orders from the orders table, at most 20"
                  errorClassName="field-error"
                />
              </div>
              <FormError error={create.error} />
            </form>
          )}
        </Dialog>
      )}
    </>
  );
}
