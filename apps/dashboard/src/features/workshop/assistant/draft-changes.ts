import type { FlowNode } from '@flowgate/flow-engine';
import { catalogueEntry } from '../model/block-fields';
import { type EndpointSettingsDraft, settingsOf, type WorkshopDoc } from '../model/workshop-document';

export interface BlockChange {
  id: string;
  /** `Respond (n2)`. */
  label: string;
}

/** What applying a draft would do to the canvas and the settings, for the panel's preview. */
export interface DraftChanges {
  added: BlockChange[];
  changed: BlockChange[];
  removed: BlockChange[];
  /** `Path: /new → /shout`. */
  settings: string[];
  /** Connections differ while no block does. */
  connectionsChanged: boolean;
}

const labelOf = (node: FlowNode): BlockChange => ({ id: node.id, label: `${catalogueEntry(node.type)?.label ?? node.type} (${node.id})` });
const sameBlock = (a: FlowNode, b: FlowNode) => a.type === b.type && JSON.stringify(a.config ?? {}) === JSON.stringify(b.config ?? {});
const edgeKeys = (doc: WorkshopDoc) => new Set(doc.edges.map((edge) => `${edge.source}>${edge.target}:${edge.sourceHandle ?? ''}`));

const SETTING_LABELS: Array<[keyof EndpointSettingsDraft, string]> = [
  ['name', 'Name'],
  ['method', 'Method'],
  ['path', 'Path'],
  ['auth', 'Authentication'],
];

/** Blocks by id: new ids are added, missing ones removed, same id with another type or config changed (a move is no change). */
export function draftChanges(current: WorkshopDoc, next: WorkshopDoc): DraftChanges {
  const before = new Map(current.nodes.map((node) => [node.id, node]));
  const after = new Map(next.nodes.map((node) => [node.id, node]));
  const added = next.nodes.filter((node) => !before.has(node.id)).map(labelOf);
  const removed = current.nodes.filter((node) => !after.has(node.id)).map(labelOf);
  const changed = next.nodes.filter((node) => before.has(node.id) && !sameBlock(before.get(node.id)!, node)).map(labelOf);
  const [was, will] = [settingsOf(current, 'endpoint'), settingsOf(next, 'endpoint')];
  const settings = SETTING_LABELS.filter(([key]) => was[key] !== will[key]).map(([key, label]) => `${label}: ${String(was[key])} → ${String(will[key])}`);
  const params = (doc: WorkshopDoc) => settingsOf(doc, 'endpoint').query_params.map((param) => param.key).join(', ') || 'none';
  if (params(current) !== params(next)) settings.push(`Query parameters: ${params(current)} → ${params(next)}`);
  const [oldEdges, newEdges] = [edgeKeys(current), edgeKeys(next)];
  const connectionsChanged = oldEdges.size !== newEdges.size || [...newEdges].some((key) => !oldEdges.has(key));
  return { added, changed, removed, settings, connectionsChanged };
}
