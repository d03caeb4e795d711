import { useCallback, useEffect, useRef, useState } from 'react';
import { type AssistantDraft, draftEndpoint } from '../../../api/assistant';

export type DraftState =
  | { phase: 'idle' }
  | { phase: 'drafting' }
  | { phase: 'failed'; error: unknown }
  | { phase: 'ready'; draft: AssistantDraft };

/** One draft at a time: `start` asks, `cancel` aborts the request, `reset` forgets the answer. */
export function useDraft(projectId: string, endpointId: string) {
  const [state, setState] = useState<DraftState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  const cancel = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState({ phase: 'idle' });
  }, []);

  const start = useCallback(
    (prompt: string) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setState({ phase: 'drafting' });
      draftEndpoint(projectId, { prompt, endpoint_id: endpointId }, current.signal).then(
        (draft) => current === controller.current && setState({ phase: 'ready', draft }),
        (error: unknown) => current === controller.current && !current.signal.aborted && setState({ phase: 'failed', error }),
      );
    },
    [projectId, endpointId],
  );

  // Leaving the Workshop stops the model's work too.
  useEffect(() => () => controller.current?.abort(), []);

  return { state, start, cancel, reset: () => setState({ phase: 'idle' }) };
}
