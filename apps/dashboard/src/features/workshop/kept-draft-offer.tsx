import { useEffect, useState } from 'react';
import { onSessionEnd } from '../../api/session-end';
import { dropKeptDraft, keepDraft, keptDraft, type KeptDraft } from './model/kept-draft';
import { useWorkshopStore } from './store/workshop-context';
import { isDirty } from './store/workshop-store';

/** When the session ends with unsaved edits, they are kept in this browser (before /login). */
export function useKeepDraftOnSessionEnd(endpointId: string): void {
  const store = useWorkshopStore();
  useEffect(
    () =>
      onSessionEnd(() => {
        if (isDirty(store.getState())) keepDraft(endpointId, store.getState().doc);
      }),
    [store, endpointId],
  );
}

/** The edits kept when the session ended, offered back when the endpoint opens again. */
export function KeptDraftOffer({ endpointId }: { endpointId: string }) {
  const store = useWorkshopStore();
  const [kept, setKept] = useState<KeptDraft | null>(() => {
    const found = keptDraft(endpointId);
    return found && JSON.stringify(found.doc) !== JSON.stringify(store.getState().doc) ? found : null;
  });
  if (!kept) return null;
  const close = () => {
    dropKeptDraft(endpointId);
    setKept(null);
  };
  return (
    <section className="ws-kept" role="region" aria-label="Unsaved edits">
      <p>
        Your session ended before these edits were saved (at {new Date(kept.keptAt).toLocaleTimeString()}). They were kept in this browser.
      </p>
      <button
        type="button"
        className="ws-button ws-primary"
        onClick={() => {
          // One undo step: undo returns to the saved flow.
          store.getState().replaceDoc(kept.doc, { history: true });
          close();
        }}
      >
        Restore unsaved edits
      </button>
      <button type="button" className="ws-button" onClick={close}>
        Discard them
      </button>
    </section>
  );
}
