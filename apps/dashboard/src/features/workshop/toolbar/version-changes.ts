import { blockFields, catalogueEntry } from '../model/block-fields';
import { saveBodyOf, SETTINGS_TITLES } from '../model/owner-doc';
import { referenceNameOf } from '../model/fresh-names';
import type { WorkshopDoc } from '../model/workshop-document';

/**
 * JSON with every object's keys in one order: PostgreSQL's jsonb gives a stored version's configs
 * back with their keys reordered, which is no change.
 */
const canonical = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );

/** The titles of the config fields whose values differ ("JSON Response"), or the keys where a field has no title. */
function changedFields(type: string, before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const titles = new Map(blockFields(type).map((field) => [field.key, field.title]));
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((key) => canonical(before[key]) !== canonical(after[key])).map((key) => titles.get(key) ?? key);
}

/**
 * What the draft changes compared with a version, in sentences ("Manipulate Text · loud: settings
 * changed (Input Text)"): only real differences, compared as Save sends them (an empty default is
 * no default) and regardless of key order.
 */
export function describeChanges(version: WorkshopDoc, draft: WorkshopDoc): string[] {
  const changes: string[] = [];
  const [oldSettings, newSettings] = [saveBodyOf(version), saveBodyOf(draft)];
  const titles = SETTINGS_TITLES[draft.settings.kind];
  for (const key of Object.keys(titles)) {
    if (canonical(oldSettings[key]) !== canonical(newSettings[key])) {
      changes.push(`${titles[key]}: ${show(oldSettings[key])} → ${show(newSettings[key])}`);
    }
  }
  const name = (node: WorkshopDoc['nodes'][number]) => [catalogueEntry(node.type)?.label ?? node.type, referenceNameOf(node)].filter(Boolean).join(' · ');
  const before = new Map(version.nodes.map((node) => [node.id, node]));
  const after = new Map(draft.nodes.map((node) => [node.id, node]));
  for (const node of draft.nodes) {
    const old = before.get(node.id);
    if (!old) changes.push(`Added ${name(node)}`);
    else {
      const fields = changedFields(node.type, old.config ?? {}, node.config ?? {});
      if (fields.length > 0) changes.push(`${name(node)}: settings changed (${fields.join(', ')})`);
    }
  }
  for (const node of version.nodes) if (!after.has(node.id)) changes.push(`Removed ${name(node)}`);
  const edgeKey = (edge: WorkshopDoc['edges'][number]) => `${edge.source}>${edge.sourceHandle ?? ''}>${edge.target}`;
  const oldEdges = new Set(version.edges.map(edgeKey));
  const newEdges = new Set(draft.edges.map(edgeKey));
  const rewired = [...newEdges].some((key) => !oldEdges.has(key)) || [...oldEdges].some((key) => !newEdges.has(key));
  if (rewired) changes.push('Connections changed');
  return changes;
}

const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
