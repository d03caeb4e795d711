import { useState } from 'react';
import { useAnnounce } from './announcer';

interface DeleteMutation {
  mutate: (id: string, options: { onSuccess: () => void }) => void;
  reset: () => void;
}

/**
 * The row a user asked to delete, held until they confirm: `ask(row)` opens the confirmation,
 * `confirm()` deletes and announces "<Kind> <name> deleted" (then calls `onDeleted`), `cancel()` closes it.
 */
export function usePendingDelete<T extends { id: string; name: string }>(mutation: DeleteMutation, kind: string, onDeleted?: () => void) {
  const [pending, setPending] = useState<T | null>(null);
  const announce = useAnnounce();
  return {
    pending,
    ask: (row: T) => {
      mutation.reset();
      setPending(row);
    },
    cancel: () => setPending(null),
    confirm: () => {
      if (!pending) return;
      mutation.mutate(pending.id, {
        onSuccess: () => {
          announce(`${kind} ${pending.name} deleted`);
          setPending(null);
          onDeleted?.();
        },
      });
    },
  };
}
