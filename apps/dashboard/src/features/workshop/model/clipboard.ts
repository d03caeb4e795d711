import type { FlowNode } from '@flowgate/flow-engine';
import { referenceNameField } from './block-fields';
import { freshId, freshReferenceName, referenceNames } from './fresh-names';
import { START_TYPE, type Clipboard, type WorkshopDoc } from './workshop-document';

/** How far a pasted copy sits from its original, so it does not hide it. */
export const PASTE_OFFSET = 40;

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
 * pasted block never overrides a name the original flow reads. Returns the new ids (to select).
 */
export function pasteNodes(doc: WorkshopDoc, clipboard: Clipboard, offset = PASTE_OFFSET): { doc: WorkshopDoc; ids: string[] } {
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
    return { ...original, id, position: { x: original.position.x + offset, y: original.position.y + offset }, config };
  });
  const edges = clipboard.edges.map((edge) => {
    const id = freshId(takenEdges, 'e');
    takenEdges.add(id);
    return { ...edge, id, source: idMap.get(edge.source) as string, target: idMap.get(edge.target) as string };
  });
  return { doc: { ...doc, nodes: [...doc.nodes, ...nodes], edges: [...doc.edges, ...edges] }, ids: nodes.map((node) => node.id) };
}
