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

/** The named handles of a block kind, the one a new connection takes first. */
const HANDLES: Partial<Record<string, readonly [string, string]>> = { branch: ['true', 'false'], loop: ['each', 'done'] };

/** The handle a new connection out of `source` uses: a condition's free branch (true first), a For Each's (each first). */
function freeHandle(doc: WorkshopDoc, source: FlowNode): string | null {
  const handles = HANDLES[flowOf(source)];
  if (!handles) return null;
  const used = new Set(doc.edges.filter((edge) => edge.source === source.id).map((edge) => edge.sourceHandle));
  return used.has(handles[0]) && !used.has(handles[1]) ? handles[1] : handles[0];
}

/** The handle a connection drawn from `sourceHandle` keeps: a named one of the block's, `error`, or none. */
function handleOf(doc: WorkshopDoc, from: FlowNode, sourceHandle: string | null): string | null {
  if (sourceHandle === 'error') return 'error';
  if (!HANDLES[flowOf(from)]) return null;
  return sourceHandle ?? freeHandle(doc, from);
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
  return { doc: spliceIn(doc, node, previous.id, handle, outgoing?.target ?? null, STEP_X), id };
}

/**
 * Adds a block dropped on a connection into it (source → new block → target, as n8n does); the
 * target and the blocks after it move right only as far as the new block needs room.
 */
export function insertOnEdge(doc: WorkshopDoc, type: string, edgeId: string, position: Position): { doc: WorkshopDoc; id: string } {
  const cut = doc.edges.find((other) => other.id === edgeId);
  if (!cut) return addBlock(doc, type, { position });
  const id = freshId(nodeIds(doc));
  const node = newBlock(type, id, position, referenceNames(doc.nodes));
  const target = doc.nodes.find((other) => other.id === cut.target);
  const push = target ? Math.max(0, position.x + STEP_X - target.position.x) : 0;
  return { doc: spliceIn(doc, node, cut.source, cut.sourceHandle ?? null, cut.target, push), id };
}

/** Puts `node` after `source`'s `handle` and before `next`, which moves `push` right with everything after it. */
function spliceIn(doc: WorkshopDoc, node: FlowNode, source: string, handle: string | null, next: string | null, push: number): WorkshopDoc {
  let edges = doc.edges.filter((other) => !(other.source === source && (other.sourceHandle ?? null) === handle));
  edges = [...edges, edge(edgeIdFor({ ...doc, edges }), source, node.id, handle)];
  let nodes = doc.nodes;
  if (next) {
    const moved = push > 0 ? downstream(doc, next) : new Set<string>();
    nodes = nodes.map((other) => (moved.has(other.id) ? { ...other, position: { x: other.position.x + push, y: other.position.y } } : other));
    // A For Each put in between goes on by `done`; a Condition by `true`.
    const onward = flowOf(node) === 'loop' ? 'done' : (HANDLES[flowOf(node)]?.[0] ?? null);
    if (flowOf(node) !== 'end') edges = [...edges, edge(edgeIdFor({ ...doc, edges }), node.id, next, onward)];
  }
  return { ...doc, nodes: [...nodes, node], edges };
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
  const handle = handleOf(doc, from, sourceHandle);
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
