import type { FlowNode } from '@flowgate/flow-engine';
import { referenceNameField } from './block-fields';
import { clearOffset, spanOf } from './free-spot';
import { freshId, freshReferenceName, referenceNames } from './fresh-names';
import { START_TYPE, type Clipboard, type Position, type WorkshopDoc } from './workshop-document';

/** Where copies spanning this box go (the box's new top-left corner), or null: below their originals. */
export type Placement = (span: { width: number; height: number }) => Position | null;

/** The selected blocks (Start is never copied) and the connections between them. */
export function copyNodes(doc: WorkshopDoc, ids: readonly string[]): Clipboard | null {
  const chosen = new Set(ids);
  const nodes = doc.nodes.filter((node) => chosen.has(node.id) && node.type !== START_TYPE);
  if (nodes.length === 0) return null;
  const kept = new Set(nodes.map((node) => node.id));
  return { nodes: structuredClone(nodes), edges: doc.edges.filter((edge) => kept.has(edge.source) && kept.has(edge.target)).map((edge) => ({ ...edge })) };
}

/**
 * Adds a copy with fresh ids and reference names that collide with nothing in the flow, so a
 * pasted block never overrides a name the original flow reads, placed where `place` says (at the
 * pointer), else below the originals, and then down to where it covers no block. Returns the new
 * ids (to select).
 */
export function pasteNodes(doc: WorkshopDoc, clipboard: Clipboard, place?: Placement): { doc: WorkshopDoc; ids: string[] } {
  const positions = clipboard.nodes.map((node) => node.position);
  const span = spanOf(positions);
  const corner = place?.({ width: span.width, height: span.height }) ?? null;
  const offset = clearOffset(positions, doc.nodes, corner === null ? undefined : { x: corner.x - span.x, y: corner.y - span.y });
  const takenIds = new Set(doc.nodes.map((node) => node.id));
  const takenNames = referenceNames(doc.nodes);
  const takenEdges = new Set(doc.edges.map((edge) => edge.id));
  const idMap = new Map<string, string>();
  const nodes: FlowNode[] = clipboard.nodes.map((original) => {
    const id = freshId(takenIds);
    takenIds.add(id);
    idMap.set(original.id, id);
    const config = structuredClone(original.config ?? {});
    const nameField = referenceNameField(original.type);
    const name = nameField ? config[nameField.key] : undefined;
    if (nameField && typeof name === 'string' && name !== '') {
      config[nameField.key] = freshReferenceName(name, takenNames);
      takenNames.add(config[nameField.key] as string);
    }
    return { ...original, id, position: { x: original.position.x + offset.x, y: original.position.y + offset.y }, config };
  });
  const edges = clipboard.edges.map((edge) => {
    const id = freshId(takenEdges, 'e');
    takenEdges.add(id);
    return { ...edge, id, source: idMap.get(edge.source) as string, target: idMap.get(edge.target) as string };
  });
  return { doc: { ...doc, nodes: [...doc.nodes, ...nodes], edges: [...doc.edges, ...edges] }, ids: nodes.map((node) => node.id) };
}
