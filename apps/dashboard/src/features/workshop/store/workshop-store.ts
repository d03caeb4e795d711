import type { Diagnostic, JsonValue } from '@flowgate/flow-engine';
import { temporal } from 'zundo';
import { createStore } from 'zustand/vanilla';
import { copyNodes, pasteNodes, type Placement } from '../model/clipboard';
import { addBlock, connect, deleteElements, insertOnEdge, moveNodes, setConfigField } from '../model/flow-edits';
import type { Clipboard, EndpointSettingsDraft, FunctionSettingsDraft, Position, ScheduleSettingsDraft, SettingsDraft, WorkshopDoc } from '../model/workshop-document';

/** A change of the base settings of the document's kind. */
export type SettingsPatch = Partial<Omit<EndpointSettingsDraft, 'kind'>> | Partial<Omit<FunctionSettingsDraft, 'kind'>> | Partial<Omit<ScheduleSettingsDraft, 'kind'>>;

/** The lists of the base settings whose new rows wait to show their findings, and the field of a row that does. */
const ROW_LISTS: Record<string, string> = { query_params: 'key', inputs: 'name' };

/** Typing into one field within this time is one undo step, not one per keystroke. */
export const FIELD_EDIT_MERGE_MS = 1000;

export interface WorkshopState {
  /** The flow and the settings: the only part undo/redo restores. */
  doc: WorkshopDoc;
  /** The document as last saved (Save compares against it). */
  saved: WorkshopDoc;
  selectedNodeIds: string[];
  selectedEdgeIds: string[];
  /** Positions while a drag is under way; committed as one step when it ends. */
  dragging: Record<string, Position> | null;
  clipboard: Clipboard | null;
  /** The field a clicked problem asks the settings panel to focus. */
  focusRequest: { nodeId: string | null; field: string | null; at: number } | null;
  /** The engine's compile of the current document, run in the browser. */
  diagnostics: Diagnostic[];
  /** A block the canvas should bring into view (just added, pasted, or named by a problem). */
  reveal: { nodeId: string; at: number } | null;
  /** What the server answered to the last Save or Deploy (cleared by the next edit). */
  serverProblems: Diagnostic[];
  /** Settings fields of rows just added and not yet touched: their findings wait (`query_params.2.key`). */
  untouched: string[];

  select(nodeIds: string[], edgeIds?: string[]): void;
  /** Adds a block after a block (`after`), into a connection it was dropped on (`onEdge`, with `position`), or at `position`. */
  addBlock(type: string, options?: { after?: string | null; position?: Position; onEdge?: string }): string;
  connect(source: string, target: string, sourceHandle?: string | null): void;
  deleteSelection(): void;
  deleteElements(nodeIds: string[], edgeIds: string[]): void;
  drag(positions: Record<string, Position>): void;
  endDrag(): void;
  moveNodes(positions: Record<string, Position>): void;
  setField(nodeId: string, key: string, value: JsonValue | undefined): void;
  setSettings(patch: SettingsPatch, fieldKey?: string): void;
  /** The user left a field (or asked to save): its findings show from now on; no field = all. */
  touch(fieldKey?: string): void;
  copy(): void;
  /** Pastes the clipboard where `place` says (the pointer on the canvas), else below the originals. */
  paste(place?: Placement): void;
  duplicate(place?: Placement): void;
  undo(): void;
  redo(): void;
  markSaved(doc?: WorkshopDoc): void;
  requestFocus(nodeId: string | null, field: string | null): void;
  setDiagnostics(diagnostics: Diagnostic[]): void;
  setServerProblems(problems: Diagnostic[]): void;
  /** Replaces the document without an undo step (load from the server, Tidy up is a normal edit). */
  replaceDoc(doc: WorkshopDoc, options?: { history?: boolean }): void;
}

export type WorkshopStore = ReturnType<typeof createWorkshopStore>;

export function createWorkshopStore(initial: WorkshopDoc, clock: () => number = Date.now) {
  let lastFieldEdit: { key: string; at: number } | null = null;

  const store = createStore<WorkshopState>()(
    temporal(
      (set, get) => {
        /** One undo step, unless `mergeKey` repeats the previous edit within the merge window. */
        const edit = (next: (doc: WorkshopDoc) => WorkshopDoc, mergeKey: string | null = null) => {
          const doc = next(get().doc);
          if (doc === get().doc) return;
          const now = clock();
          const merge = mergeKey !== null && lastFieldEdit?.key === mergeKey && now - lastFieldEdit.at < FIELD_EDIT_MERGE_MS;
          lastFieldEdit = mergeKey === null ? null : { key: mergeKey, at: now };
          if (merge) store.temporal.getState().pause();
          set({ doc, serverProblems: [] });
          if (merge) store.temporal.getState().resume();
        };
        const pasteFrom = (clipboard: Clipboard | null, place?: Placement) => {
          if (!clipboard) return;
          let ids: string[] = [];
          edit((doc) => {
            const pasted = pasteNodes(doc, clipboard, place);
            ids = pasted.ids;
            return pasted.doc;
          });
          set({ selectedNodeIds: ids, selectedEdgeIds: [], reveal: ids.length > 0 ? { nodeId: ids[0], at: clock() } : get().reveal });
        };

        return {
          doc: initial,
          saved: initial,
          selectedNodeIds: [],
          selectedEdgeIds: [],
          dragging: null,
          clipboard: null,
          focusRequest: null,
          diagnostics: [],
          serverProblems: [],
          untouched: [],
          reveal: null,

          select: (nodeIds, edgeIds = []) => set({ selectedNodeIds: nodeIds, selectedEdgeIds: edgeIds }),
          addBlock: (type, options = {}) => {
            let id = '';
            edit((doc) => {
              const added = options.onEdge && options.position ? insertOnEdge(doc, type, options.onEdge, options.position) : addBlock(doc, type, options);
              id = added.id;
              return added.doc;
            });
            set({ selectedNodeIds: [id], selectedEdgeIds: [], reveal: { nodeId: id, at: clock() } });
            return id;
          },
          connect: (source, target, sourceHandle = null) => edit((doc) => connect(doc, source, target, sourceHandle)),
          deleteSelection: () => {
            const { selectedNodeIds, selectedEdgeIds } = get();
            get().deleteElements(selectedNodeIds, selectedEdgeIds);
          },
          deleteElements: (nodeIds, edgeIds) => {
            edit((doc) => deleteElements(doc, nodeIds, edgeIds));
            const { doc } = get();
            set({
              selectedNodeIds: get().selectedNodeIds.filter((id) => doc.nodes.some((node) => node.id === id)),
              selectedEdgeIds: get().selectedEdgeIds.filter((id) => doc.edges.some((other) => other.id === id)),
            });
          },
          drag: (positions) => set({ dragging: { ...get().dragging, ...positions } }),
          endDrag: () => {
            const positions = get().dragging;
            if (!positions) return;
            // The in-between positions never entered the document: the whole drag is one step.
            edit((doc) => moveNodes(doc, positions));
            set({ dragging: null });
          },
          moveNodes: (positions) => edit((doc) => moveNodes(doc, positions)),
          setField: (nodeId, key, value) => edit((doc) => setConfigField(doc, nodeId, key, value), `${nodeId}.${key}`),
          setSettings: (patch, fieldKey) => {
            edit((doc) => ({ ...doc, settings: { ...doc.settings, ...patch } as SettingsDraft }), `settings.${fieldKey ?? Object.keys(patch).join(',')}`);
            const { untouched, doc } = get();
            const [list, action] = fieldKey?.split('.') ?? [];
            const rows = list !== undefined && list in ROW_LISTS ? (doc.settings as unknown as Record<string, unknown[]>)[list] : undefined;
            if (action === 'add' && rows) set({ untouched: [...untouched, `${list}.${rows.length - 1}.${ROW_LISTS[list!]}`] });
            // Rows shift on removal; a remaining new row simply shows its findings.
            else if (action === 'remove' && rows) set({ untouched: [] });
            else if (fieldKey && untouched.includes(fieldKey)) get().touch(fieldKey);
          },
          touch: (fieldKey) => {
            const { untouched } = get();
            if (untouched.length === 0) return;
            set({ untouched: fieldKey === undefined ? [] : untouched.filter((key) => key !== fieldKey) });
          },
          copy: () => {
            const clipboard = copyNodes(get().doc, get().selectedNodeIds);
            if (clipboard) set({ clipboard });
          },
          paste: (place) => pasteFrom(get().clipboard, place),
          duplicate: (place) => pasteFrom(copyNodes(get().doc, get().selectedNodeIds), place),
          undo: () => {
            lastFieldEdit = null;
            store.temporal.getState().undo();
          },
          redo: () => {
            lastFieldEdit = null;
            store.temporal.getState().redo();
          },
          setDiagnostics: (diagnostics) => set({ diagnostics }),
          setServerProblems: (serverProblems) => set({ serverProblems }),
          markSaved: (doc) => set({ saved: doc ?? get().doc }),
          requestFocus: (nodeId, field) =>
            set({
              focusRequest: { nodeId, field, at: clock() },
              ...(nodeId ? { selectedNodeIds: [nodeId], selectedEdgeIds: [], reveal: { nodeId, at: clock() } } : {}),
            }),
          replaceDoc: (doc, options = {}) => {
            if (options.history) {
              edit(() => doc);
              return;
            }
            store.temporal.getState().pause();
            set({ doc, saved: doc });
            store.temporal.getState().resume();
            store.temporal.getState().clear();
          },
        };
      },
      {
        partialize: (state) => ({ doc: state.doc }),
        // Selection, drags in progress, the clipboard and saves are not edits.
        equality: (past, current) => past.doc === current.doc,
        limit: 200,
      },
    ),
  );
  return store;
}

/** Unsaved changes: undoing back to the saved document counts as saved. */
export const isDirty = (state: Pick<WorkshopState, 'doc' | 'saved'>): boolean =>
  state.doc !== state.saved && JSON.stringify(state.doc) !== JSON.stringify(state.saved);
