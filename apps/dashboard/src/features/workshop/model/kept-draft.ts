import type { WorkshopDoc } from './workshop-document';

// A draft kept in this browser when the session ended with unsaved edits, offered back when the
// endpoint is opened again (after signing in). Removed by a Save, a restore or a discard.
const key = (endpointId: string) => `flowgate.kept-draft.${endpointId}`;

export interface KeptDraft {
  doc: WorkshopDoc;
  /** When it was kept (ms since the epoch). */
  keptAt: number;
}

export function keepDraft(endpointId: string, doc: WorkshopDoc, now = Date.now()): void {
  try {
    localStorage.setItem(key(endpointId), JSON.stringify({ doc, keptAt: now } satisfies KeptDraft));
  } catch {
    // storage full or blocked: nothing more can be done once the session is gone
  }
}

export function keptDraft(endpointId: string): KeptDraft | null {
  try {
    const raw = localStorage.getItem(key(endpointId));
    const parsed = raw ? (JSON.parse(raw) as Partial<KeptDraft>) : null;
    return parsed?.doc && Array.isArray(parsed.doc.nodes) && typeof parsed.keptAt === 'number' ? (parsed as KeptDraft) : null;
  } catch {
    return null;
  }
}

export function dropKeptDraft(endpointId: string): void {
  try {
    localStorage.removeItem(key(endpointId));
  } catch {
    // nothing to drop
  }
}
