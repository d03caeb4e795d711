import { useEffect, type RefObject } from 'react';
import type { WorkshopStore } from './store/workshop-store';

interface Handlers {
  save(): void;
  deploy(): void;
}

/** Typing in a field keeps its own keys (its own undo, copy and paste). */
const isEditable = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The Workshop's keys (DASHBOARD.md): Ctrl/Cmd+S saves, +Enter deploys, +Z / +Shift+Z undo and
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
        event.preventDefault();
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
        state.paste();
      } else if (mod && key === 'd') {
        event.preventDefault();
        state.duplicate();
      } else if (key === '/' && !mod) {
        event.preventDefault();
        search.current?.focus();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [store, handlers, search]);
}
