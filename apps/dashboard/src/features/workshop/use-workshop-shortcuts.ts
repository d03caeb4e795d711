import { useEffect, type RefObject } from 'react';
import type { Placement } from './model/clipboard';
import type { WorkshopStore } from './store/workshop-store';

interface Handlers {
  save(): void;
  deploy(): void;
  /** Where pasted and duplicated blocks go: at the pointer while it is over the canvas. */
  pastePlacement(): Placement | undefined;
}

/** Typing in a field keeps its own keys (its own undo, copy and paste). */
const isEditable = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The Workshop's keys (docs/dashboard.md): Ctrl/Cmd+S saves, +Enter deploys, +Z / +Shift+Z undo and
 * redo, +C / +V / +D copy, paste and duplicate blocks, `/` focuses the pool's search.
 */
export function useWorkshopShortcuts(store: WorkshopStore, handlers: Handlers, search: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const state = store.getState();
      if (mod && key === 's') {
        event.preventDefault();
        handlers.save();
      } else if (mod && key === 'enter') {
        // Taken before the field sees it: CodeMirror's own Mod-Enter would first add a line break.
        event.preventDefault();
        event.stopPropagation();
        handlers.deploy();
      } else if (isEditable(event.target)) {
        return;
      } else if (mod && key === 'z') {
        event.preventDefault();
        if (event.shiftKey) state.redo();
        else state.undo();
      } else if (mod && key === 'y') {
        event.preventDefault();
        state.redo();
      } else if (mod && key === 'c') {
        state.copy();
      } else if (mod && key === 'v') {
        state.paste(handlers.pastePlacement());
      } else if (mod && key === 'd') {
        event.preventDefault();
        state.duplicate(handlers.pastePlacement());
      } else if (key === '/' && !mod) {
        event.preventDefault();
        search.current?.focus();
      }
    };
    // Capture: Save and Deploy win over what the focused field does with the same keys.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [store, handlers, search]);
}
