import { blockCatalogue, type BlockCatalogueEntry, type JsonValue } from '@flowgate/flow-engine';
import type { z } from 'zod';

/**
 * How the settings panel edits one config field, read from the block's zod schema and its
 * `.meta()` tags (title, template, referenceName, shownWhen). No block has UI code of its own.
 * - `text`: a template whose value is text ("Hello {params.name}");
 * - `value`: a template that may also hold a number, boolean or JSON (typed as JSON, else text);
 * - `entries`: a JSON object template edited as key/value entries or raw JSON (Respond's body);
 * - `list`: an array of small objects (headers), each item with its own fields;
 * - `group`: one small object (a sort order), its fields side by side;
 * - `code`: program text in a code editor (`.meta({ code: 'javascript' })`: Run Code's code).
 * - `flags`: a list of choices, one checkbox each (Retry's causes), labelled by `optionTitles`.
 */
export type FieldKind = 'text' | 'value' | 'entries' | 'string' | 'number' | 'boolean' | 'enum' | 'list' | 'group' | 'code' | 'flags';

/**
 * What a field of a table block names (`.meta({ dataTable })`): the table, one of its columns, or
 * values by column. The settings panel offers the project's tables and that table's columns there.
 */
export type DataTableRole = 'table' | 'column' | 'values';

/** What a field of Call Function names (`.meta({ projectFunction })`): the function, or its arguments by input. */
export type ProjectFunctionRole = 'function' | 'args';

export interface BlockField {
  key: string;
  title: string;
  kind: FieldKind;
  /** Template fields offer reference completion. */
  template: boolean;
  /** A reference name (`ref`, Set Variable's `name`): unique per flow, shown on the node. */
  referenceName: boolean;
  required: boolean;
  nullable: boolean;
  options: readonly string[];
  /** A label per option (`.meta({ optionTitles })`); an option without one shows as itself. */
  optionTitles: Readonly<Record<string, string>>;
  defaultValue: JsonValue | undefined;
  dataTable: DataTableRole | null;
  projectFunction: ProjectFunctionRole | null;
  /** Shown only while another field holds one of these values. */
  shownWhen: Record<string, readonly string[]> | null;
  /** For `list`: the fields of one item and the most items allowed; for `group`: its fields. */
  itemFields: BlockField[];
  maxItems: number | null;
  /** For `list`: what one item is called (`.meta({ item: 'input' })`: "Add input", "Remove input"). */
  itemLabel: string | null;
}

type AnySchema = z.ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };
type Meta = Record<string, unknown>;

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable']);

export function describeField(key: string, schema: z.ZodType): BlockField {
  let current = schema as AnySchema;
  let meta: Meta = {};
  let required = true;
  let nullable = false;
  let defaultValue: JsonValue | undefined;
  for (;;) {
    meta = { ...(current.meta() as Meta | undefined), ...meta };
    const def = current._zod.def;
    if (!WRAPPERS.has(def.type)) break;
    if (def.type === 'nullable') nullable = true;
    else required = false;
    if ((def.type === 'default' || def.type === 'prefault') && defaultValue === undefined) defaultValue = readDefault(def.defaultValue);
    current = def.innerType as AnySchema;
  }
  const def = current._zod.def;
  const template = meta.template === true;
  const item = def.type === 'array' ? (def.element as AnySchema) : null;
  const flags = item?._zod.def.type === 'enum';
  const object = item?._zod.def.type === 'object' ? item : def.type === 'object' ? current : null;
  const itemShape = object ? ((object as unknown as z.ZodObject).shape as Record<string, z.ZodType>) : {};
  return {
    key,
    title: typeof meta.title === 'string' ? meta.title : key,
    kind: meta.code === 'javascript' ? 'code' : flags ? 'flags' : kindOf(def, template, defaultValue),
    template,
    referenceName: meta.referenceName === true,
    dataTable: (meta.dataTable as DataTableRole | undefined) ?? null,
    projectFunction: (meta.projectFunction as ProjectFunctionRole | undefined) ?? null,
    required,
    nullable,
    options: def.type === 'enum' ? Object.values(def.entries as Record<string, string>) : flags ? Object.values(item._zod.def.entries as Record<string, string>) : [],
    optionTitles: (meta.optionTitles as Record<string, string> | undefined) ?? {},
    defaultValue,
    shownWhen: (meta.shownWhen as BlockField['shownWhen']) ?? null,
    itemFields: Object.entries(itemShape).map(([itemKey, itemSchema]) => describeField(itemKey, itemSchema)),
    maxItems: item ? maxLength(current) : null,
    itemLabel: typeof meta.item === 'string' ? meta.item : null,
  };
}

function readDefault(value: unknown): JsonValue | undefined {
  const resolved = typeof value === 'function' ? (value as () => unknown)() : value;
  return resolved as JsonValue | undefined;
}

function kindOf(def: AnySchema['_zod']['def'], template: boolean, defaultValue: JsonValue | undefined): FieldKind {
  if (template) {
    if (def.type === 'pipe') return 'text';
    const isObject = defaultValue !== null && typeof defaultValue === 'object' && !Array.isArray(defaultValue);
    return isObject ? 'entries' : 'value';
  }
  switch (def.type) {
    case 'enum':
      return 'enum';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'list';
    case 'object':
      return 'group';
    default:
      return 'string';
  }
}

function maxLength(schema: AnySchema): number | null {
  const checks = (schema._zod.def.checks as Array<{ _zod: { def: { check: string; maximum?: number } } }> | undefined) ?? [];
  const max = checks.find((check) => check._zod.def.check === 'max_length');
  return max?._zod.def.maximum ?? null;
}

const fieldCache = new Map<string, BlockField[]>();

/** The fields of a block type, in schema order (cached: the catalogue never changes at run time). */
export function blockFields(type: string): BlockField[] {
  let fields = fieldCache.get(type);
  if (fields === undefined) {
    const entry = catalogueEntry(type);
    const shape = (entry?.configSchema.shape ?? {}) as Record<string, z.ZodType>;
    fields = Object.entries(shape).map(([key, schema]) => describeField(key, schema));
    fieldCache.set(type, fields);
  }
  return fields;
}

const byType = new Map(blockCatalogue.map((entry) => [entry.type, entry]));
export const catalogueEntry = (type: string): BlockCatalogueEntry | undefined => byType.get(type);

/** Whether a field applies to the current config (operation-dependent fields). */
export function isFieldShown(field: BlockField, config: Record<string, unknown>): boolean {
  if (field.shownWhen === null) return true;
  // New blocks get every enum's default or first option, so the controlling field always has a value.
  return Object.entries(field.shownWhen).every(([other, values]) => values.includes(String(config[other] ?? '')));
}

/** The config field holding the block's reference name, if any. */
export const referenceNameField = (type: string): BlockField | undefined => blockFields(type).find((field) => field.referenceName);
