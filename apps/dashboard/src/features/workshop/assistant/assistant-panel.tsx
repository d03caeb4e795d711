import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useAssistantStatus } from '../../../api/assistant';
import { isApiError } from '../../../api/api-error';
import { FormError } from '../../../ui/form-error';
import { AssistantOff } from './assistant-off';
import { DescriptionField } from './description-field';
import { DraftPreview } from './draft-preview';
import { useDraft } from './use-draft';
import './assistant.css';

interface AssistantPanelProps {
  projectId: string;
  endpointId: string;
  /** A description to start from (the endpoint list's `Describe it instead`): drafted at once. */
  initialPrompt?: string;
  onClose(): void;
  /** After `Apply draft` replaced the canvas (the Workshop fits the view to it). */
  onApplied?(): void;
}

/**
 * `Ask the assistant`: a description in, a draft of the whole endpoint out (docs/assistant.md).
 * The draft is only shown until `Apply draft` puts it on the canvas as one undo step.
 */
export function AssistantPanel({ projectId, endpointId, initialPrompt = '', onClose, onApplied }: AssistantPanelProps) {
  const status = useAssistantStatus();
  const { state, start, cancel, reset } = useDraft(projectId, endpointId);
  const [prompt, setPrompt] = useState(initialPrompt);
  const [empty, setEmpty] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const refusedForKey = state.phase === 'failed' && isApiError(state.error) && state.error.code === 'assistant_unavailable';
  const available = status.data ? status.data.available && !refusedForKey : !refusedForKey;

  const startedWith = useRef(false);
  useEffect(() => {
    if (startedWith.current || !status.data?.available) return;
    startedWith.current = true;
    if (initialPrompt.trim()) start(initialPrompt.trim());
    else textRef.current?.focus();
  }, [status.data, initialPrompt, start]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!prompt.trim()) {
      setEmpty(true);
      textRef.current?.focus();
      return;
    }
    setEmpty(false);
    start(prompt.trim());
  };

  return (
    <aside className="ws-assistant" aria-label="Assistant">
      <div className="as-head">
        <h2 className="ws-panel-title">Assistant</h2>
        <button type="button" className="ws-button" onClick={onClose}>
          Close
        </button>
      </div>
      {status.isPending ? (
        <p className="ws-muted">
          Checking the assistant…
        </p>
      ) : !available ? (
        <AssistantOff />
      ) : (
        <>
          <form className="as-form" onSubmit={submit}>
            <DescriptionField
              ref={textRef}
              rows={3}
              value={prompt}
              onChange={setPrompt}
              empty={empty}
              readOnly={state.phase === 'drafting'}
              placeholder="POST /signup: store the email in the customers table and answer its id"
              errorClassName="ws-field-error"
            />
            <button type="submit" className="ws-button ws-primary" disabled={state.phase === 'drafting'}>
              Draft it
            </button>
          </form>
          {state.phase === 'drafting' && (
            <div className="as-progress">
              <progress aria-label="Drafting…" />
              <span>Drafting…</span>
              <button type="button" className="ws-button" onClick={cancel}>
                Cancel
              </button>
            </div>
          )}
          {state.phase === 'failed' && <FormError error={state.error} />}
          {state.phase === 'ready' && <DraftPreview draft={state.draft} onDone={reset} onApplied={onApplied} />}
        </>
      )}
    </aside>
  );
}
