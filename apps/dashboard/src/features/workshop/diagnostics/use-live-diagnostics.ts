import { validateFlow } from '@flowgate/flow-engine';
import { useEffect } from 'react';
import { saveBody } from '../model/endpoint-doc';
import { useWorkshopStore } from '../store/workshop-context';

/** Pause after the last edit before compiling again (typing stays smooth on large flows). */
export const DIAGNOSTICS_DEBOUNCE_MS = 250;

/** Runs the engine's own compile on the document as Save would send it, after every change. */
export function useLiveDiagnostics(): void {
  const store = useWorkshopStore();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      const body = saveBody(store.getState().doc);
      const { flow, ...settings } = body;
      store.getState().setDiagnostics(validateFlow({ flow, settings: settings as Parameters<typeof validateFlow>[0]['settings'] }));
    };
    run();
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.doc === previous.doc) return;
      clearTimeout(timer);
      timer = setTimeout(run, DIAGNOSTICS_DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [store]);
}
