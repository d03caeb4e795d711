import type { FlowEdge, FlowNode, JsonValue } from '@flowgate/flow-engine';
import { blockFields, catalogueEntry, isFieldShown } from './block-fields';
import { freshId, referenceNames } from './fresh-names';
import { newBlock } from './new-block';
import { START_TYPE, type Position, type WorkshopDoc } from './workshop-document';

/** Horizontal distance between a block and the one after it (flows read left to right). */
export const STEP_X = 240;

const flowOf = (node: FlowNode | undefined) => (node ? (catalogueEntry(node.type)?.flow ?? 'next') : 'next');
const nodeIds = (doc: WorkshopDoc) => new Set(doc.nodes.map((node) => node.id));
const edgeIdFor = (doc: WorkshopDoc) => freshId(new Set(doc.edges.map((edge) => edge.id)), 'e');

/** The handle a new connection out of `source` uses: a condition's free branch, true first. */
function freeHandle(doc: WorkshopDoc, source: FlowNode): string | null {
  if (flowOf(source) !== 'branch') return null;
  const used = new Set(doc.edges.filter((edge) => edge.source === source.id).map((edge) => edge.sourceHandle));
  return used.has('true') && !used.has('false') ? 'false' : 'true';
}

/**
 * Adds a block; with `after`, connects it after that block, inserting it between that block and
 * its next one (which moves one step right, with everything after it).
 */
export function addBlock(doc: WorkshopDoc, type: string, options: { after?: string | null; position?: Position }): { doc: WorkshopDoc; id: string } {
  const id = freshId(nodeIds(doc));
  const previous = options.after ? doc.nodes.find((node) => node.id === options.after) : undefined;
  const position = options.position ?? (previous ? { x: previous.position.x + STEP_X, y: previous.position.y } : besideEverything(doc));
  const node = newBlock(type, id, position, referenceNames(doc.nodes));
  if (!previous || flowOf(previous) === 'end') return { doc: { ...doc, nodes: [...doc.nodes, node] }, id };

  const handle = freeHandle(doc, previous);
  const outgoing = doc.edges.find((edge) => edge.source === previous.id && (edge.sourceHandle ?? null) === handle);
  let edges = doc.edges.filter((edge) => edge !== outgoing);
  let nodes = doc.nodes;
  edges = [...edges, edge(edgeIdFor({ ...doc, edges }), previous.id, id, handle)];
  if (outgoing) {
    const moved = downstream(doc, outgoing.target);
    nodes = nodes.map((other) => (moved.has(other.id) ? { ...other, position: { x: other.position.x + STEP_X, y: other.position.y } } : other));
    if (flowOf(node) !== 'end') edges = [...edges, edge(edgeIdFor({ ...doc, edges }), id, outgoing.target, flowOf(node) === 'branch' ? 'true' : null)];
  }
  return { doc: { ...doc, nodes: [...nodes, node], edges }, id };
}

/** Right of the rightmost block, where a block added with nothing selected hides nothing. */
const besideEverything = (doc: WorkshopDoc): Position => ({ x: Math.max(0, ...doc.nodes.map((node) => node.position.x)) + STEP_X, y: 0 });

const edge = (id: string, source: string, target: string, sourceHandle: string | null): FlowEdge =>
  sourceHandle === null ? { id, source, target } : { id, source, target, sourceHandle };

function downstream(doc: WorkshopDoc, from: string): Set<string> {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    for (const out of doc.edges) {
      if (out.source !== current || seen.has(out.target)) continue;
      seen.add(out.target);
      queue.push(out.target);
    }
  }
  return seen;
}

/**
 * Connects two blocks. A block has one way out per handle, so a new connection from the same
 * handle replaces the old one; loops back into the same block and into Start are refused.
 */
export function connect(doc: WorkshopDoc, source: string, target: string, sourceHandle: string | null = null): WorkshopDoc {
  const from = doc.nodes.find((node) => node.id === source);
  const to = doc.nodes.find((node) => node.id === target);
  if (!from || !to || source === target || to.type === START_TYPE || flowOf(from) === 'end') return doc;
  const handle = flowOf(from) === 'branch' ? (sourceHandle ?? freeHandle(doc, from)) : null;
  const kept = doc.edges.filter((other) => !(other.source === source && (other.sourceHandle ?? null) === handle));
  return { ...doc, edges: [...kept, edge(edgeIdFor(doc), source, target, handle)] };
}

/** Removes blocks (never Start) with their connections, and connections. */
export function deleteElements(doc: WorkshopDoc, nodeIdsToDelete: readonly string[], edgeIdsToDelete: readonly string[] = []): WorkshopDoc {
  const removed = new Set(nodeIdsToDelete.filter((id) => doc.nodes.find((node) => node.id === id)?.type !== START_TYPE));
  const removedEdges = new Set(edgeIdsToDelete);
  const edges = doc.edges.filter((other) => !removedEdges.has(other.id) && !removed.has(other.source) && !removed.has(other.target));
  if (removed.size === 0 && edges.length === doc.edges.length) return doc;
  return { ...doc, nodes: doc.nodes.filter((node) => !removed.has(node.id)), edges };
}

export function moveNodes(doc: WorkshopDoc, positions: Readonly<Record<string, Position>>): WorkshopDoc {
  const changed = doc.nodes.some((node) => {
    const next = positions[node.id];
    return next !== undefined && (next.x !== node.position.x || next.y !== node.position.y);
  });
  if (!changed) return doc;
  return { ...doc, nodes: doc.nodes.map((node) => (positions[node.id] ? { ...node, position: { ...positions[node.id] } } : node)) };
}

/**
 * Sets one config field; fields that stop applying (Find after Operation leaves `replace`) are
 * dropped, so their references are not checked and the saved flow holds only what is shown.
 */
export function setConfigField(doc: WorkshopDoc, nodeId: string, key: string, value: JsonValue | undefined): WorkshopDoc {
  const current = doc.nodes.find((node) => node.id === nodeId)?.config?.[key];
  if (JSON.stringify(current) === JSON.stringify(value)) return doc;
  return {
    ...doc,
    nodes: doc.nodes.map((node) => {
      if (node.id !== nodeId) return node;
      const config: Record<string, JsonValue> = { ...node.config };
      if (value === undefined) delete config[key];
      else config[key] = value;
      for (const field of blockFields(node.type)) if (field.key in config && !isFieldShown(field, config)) delete config[field.key];
      return { ...node, config };
    }),
  };
}
