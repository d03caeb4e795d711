import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { WorkshopState, WorkshopStore } from './workshop-store';

export const WorkshopStoreContext = createContext<WorkshopStore | null>(null);

export function useWorkshopStore(): WorkshopStore {
  const store = useContext(WorkshopStoreContext);
  if (!store) throw new Error('useWorkshopStore outside the Workshop');
  return store;
}

/** One slice of the editor's state; the component re-renders only when that slice changes. */
export function useWorkshop<T>(selector: (state: WorkshopState) => T): T {
  return useStore(useWorkshopStore(), selector);
}

/** Whether undo / redo have something to do (for the toolbar's disabled state). */
export function useHistoryAvailability(): { canUndo: boolean; canRedo: boolean } {
  const store = useWorkshopStore();
  const canUndo = useStore(store.temporal, (state) => state.pastStates.length > 0);
  const canRedo = useStore(store.temporal, (state) => state.futureStates.length > 0);
  return { canUndo, canRedo };
}
