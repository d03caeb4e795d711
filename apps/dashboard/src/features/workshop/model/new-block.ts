import type { FlowNode, JsonValue } from '@flowgate/flow-engine';
import { blockFields, catalogueEntry } from './block-fields';
import { freshReferenceName } from './fresh-names';
import type { Position } from './workshop-document';

/** A name to start from, from the label's last word: Manipulate Text → text, Match Regex → regex. */
const baseName = (type: string): string => {
  const label = catalogueEntry(type)?.label ?? type;
  return (label.split(' ').pop() ?? 'value').toLowerCase().replace(/[^a-z0-9_]/g, '') || 'value';
};

/** A config that starts valid where it can: defaults, first enum options, a free reference name. */
export function newBlockConfig(type: string, takenNames: ReadonlySet<string>): Record<string, JsonValue> {
  const config: Record<string, JsonValue> = {};
  for (const field of blockFields(type)) {
    if (field.referenceName) config[field.key] = freshReferenceName(`${baseName(type)}1`, takenNames);
    else if (field.defaultValue !== undefined) config[field.key] = field.defaultValue;
    else if (field.kind === 'enum') config[field.key] = field.options[0];
    else if (field.dataTable === 'values') config[field.key] = {};
    else if (field.required && (field.kind === 'text' || field.kind === 'value' || field.kind === 'string')) config[field.key] = '';
  }
  return config;
}

export function newBlock(type: string, id: string, position: Position, takenNames: ReadonlySet<string>): FlowNode {
  return { id, type, position, config: newBlockConfig(type, takenNames) };
}
