import type { CompileContext } from '@flowgate/flow-engine';
import { useEffect } from 'react';
import { useWorkshopStore } from '../store/workshop-context';
import { diagnose } from './diagnose';

/** Pause after the last edit before compiling again (typing stays smooth on large flows). */
export const DIAGNOSTICS_DEBOUNCE_MS = 250;

/** Runs the engine's own compile on the document as Save would send it, after every change. */
export function useLiveDiagnostics(context: CompileContext = {}): void {
  const store = useWorkshopStore();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      const { doc, untouched } = store.getState();
      // A row just added is empty by design: its findings wait until the user leaves it or saves.
      store.getState().setDiagnostics(diagnose(doc, context).filter((d) => d.node_id !== null || d.field === null || !untouched.includes(d.field)));
    };
    // The first compile too waits a moment, so the canvas is drawn first (200 blocks take ~100 ms to check).
    timer = setTimeout(run, DIAGNOSTICS_DEBOUNCE_MS);
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.doc === previous.doc && state.untouched === previous.untouched) return;
      clearTimeout(timer);
      timer = setTimeout(run, DIAGNOSTICS_DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [store, context]);
}
