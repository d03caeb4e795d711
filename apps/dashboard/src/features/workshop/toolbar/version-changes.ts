import { catalogueEntry } from '../model/block-fields';
import { referenceNameOf } from '../model/fresh-names';
import type { WorkshopDoc } from '../model/workshop-document';

const SETTINGS_TITLES = { name: 'Endpoint name', method: 'Method', path: 'Path', auth: 'Authentication', query_params: 'Query parameters' } as const;

/** What the draft changes compared with a version, in sentences ("Manipulate Text · loud: settings changed"). */
export function describeChanges(version: WorkshopDoc, draft: WorkshopDoc): string[] {
  const changes: string[] = [];
  for (const key of Object.keys(SETTINGS_TITLES) as Array<keyof typeof SETTINGS_TITLES>) {
    if (JSON.stringify(version.settings[key]) !== JSON.stringify(draft.settings[key])) {
      changes.push(`${SETTINGS_TITLES[key]}: ${show(version.settings[key])} → ${show(draft.settings[key])}`);
    }
  }
  const name = (node: WorkshopDoc['nodes'][number]) => [catalogueEntry(node.type)?.label ?? node.type, referenceNameOf(node)].filter(Boolean).join(' · ');
  const before = new Map(version.nodes.map((node) => [node.id, node]));
  const after = new Map(draft.nodes.map((node) => [node.id, node]));
  for (const node of draft.nodes) {
    const old = before.get(node.id);
    if (!old) changes.push(`Added ${name(node)}`);
    else if (JSON.stringify(old.config ?? {}) !== JSON.stringify(node.config ?? {})) changes.push(`${name(node)}: settings changed`);
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
