import { useEffect, useMemo, useRef } from 'react';
import type { AssistantDraft } from '../../../api/assistant';
import { useAnnounce } from '../../../ui/announcer';
import { useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { type BlockChange, draftChanges } from './draft-changes';
import { docFromDraft } from './draft-doc';
import { settingsOf } from '../model/workshop-document';

/** The draft's explanation, its remaining problems and what it would change; `Apply draft` or `Discard`. */
export function DraftPreview({ draft, onDone, onApplied }: { draft: AssistantDraft; onDone(): void; onApplied?(): void }) {
  const store = useWorkshopStore();
  const announce = useAnnounce();
  const doc = useWorkshop((state) => state.doc);
  const next = useMemo(() => docFromDraft(settingsOf(doc, 'endpoint'), draft), [doc, draft]);
  const changes = useMemo(() => draftChanges(doc, next), [doc, next]);
  const region = useRef<HTMLDivElement>(null);
  // The draft is under the form: bring its start into the panel's view.
  useEffect(() => {
    region.current?.scrollIntoView?.({ block: 'start' });
  }, [draft]);
  const nothing = changes.added.length + changes.changed.length + changes.removed.length + changes.settings.length === 0 && !changes.connectionsChanged;

  const apply = () => {
    store.getState().replaceDoc(next, { history: true });
    announce('Draft applied to the canvas; Undo puts the previous flow back');
    onDone();
    onApplied?.();
  };
  const discard = () => {
    announce('Draft discarded');
    onDone();
  };

  return (
    <div ref={region} className="as-draft" role="region" aria-label="Draft">
      {draft.explanation && <p className="as-explanation">{draft.explanation}</p>}
      <h3 className="as-heading">Remaining problems</h3>
      {draft.diagnostics.length === 0 ? (
        <p className="ws-muted">None: Save and Deploy would accept it.</p>
      ) : (
        <ul className="as-list" aria-label="Remaining problems">
          {draft.diagnostics.map((diagnostic, index) => (
            <li key={index} className={diagnostic.severity === 'error' ? 'as-error' : 'as-warning'}>
              {diagnostic.message}
            </li>
          ))}
        </ul>
      )}
      <h3 className="as-heading">Changes</h3>
      {nothing ? <p className="ws-muted">The draft is what the canvas already holds.</p> : null}
      <ChangeList title="Added" items={changes.added} />
      <ChangeList title="Changed" items={changes.changed} />
      <ChangeList title="Removed" items={changes.removed} />
      {changes.settings.length > 0 && (
        <ul className="as-list" aria-label="Settings changed">
          {changes.settings.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {changes.connectionsChanged && changes.added.length + changes.removed.length === 0 && <p className="ws-muted">The connections between blocks change.</p>}
      <div className="as-actions">
        <button type="button" className="ws-button ws-primary" onClick={apply}>
          Apply draft
        </button>
        <button type="button" className="ws-button" onClick={discard}>
          Discard
        </button>
      </div>
    </div>
  );
}

function ChangeList({ title, items }: { title: string; items: BlockChange[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="as-list" aria-label={`Blocks ${title.toLowerCase()}`}>
      {items.map((item) => (
        <li key={item.id} className={`as-${title.toLowerCase()}`}>
          <span className="as-mark">{title}</span> {item.label}
        </li>
      ))}
    </ul>
  );
}
