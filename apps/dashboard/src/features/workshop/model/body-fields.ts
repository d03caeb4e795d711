import type { BodySchema } from '@flowgate/flow-engine';

/** The field types the Body editor offers; `list` is JSON Schema's `array`. */
export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'list'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One property of an object schema as the editor lists it. */
export interface BodyField {
  name: string;
  schema: BodySchema;
  required: boolean;
}

export const fieldTypeOf = (schema: BodySchema): FieldType => (schema.type === 'array' ? 'list' : ((schema.type as FieldType | undefined) ?? 'string'));

/** A fresh schema of a type: objects start with no fields, lists with text items. */
export function schemaOfType(type: FieldType): BodySchema {
  if (type === 'object') return { type: 'object', properties: {} };
  if (type === 'list') return { type: 'array', items: { type: 'string' } };
  return { type };
}

export function fieldsOf(schema: BodySchema): BodyField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, child]) => ({ name, schema: child, required: required.has(name) }));
}

/** The object schema with these fields, in this order (other keywords of the object kept). */
export function withFields(schema: BodySchema, fields: readonly BodyField[]): BodySchema {
  const properties: Record<string, BodySchema> = {};
  for (const field of fields) properties[field.name] = field.schema;
  const required = fields.filter((field) => field.required && field.name !== '').map((field) => field.name);
  const next: BodySchema = { ...schema, type: 'object', properties };
  if (required.length > 0) next.required = required;
  else delete next.required;
  return next;
}

/** A name for a new field that no sibling has: `field`, `field_2`, … */
export function freshFieldName(fields: readonly BodyField[]): string {
  const taken = new Set(fields.map((field) => field.name));
  if (!taken.has('field')) return 'field';
  let n = 2;
  while (taken.has(`field_${n}`)) n++;
  return `field_${n}`;
}
