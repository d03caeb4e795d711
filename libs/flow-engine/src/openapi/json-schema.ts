import type { JsonValue } from '../json';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain JSON. */
export type JsonSchema = { [keyword: string]: JsonValue };

/** Any JSON value: what the engine cannot know (a request body field, an external answer). */
export const ANY: JsonSchema = {};
export const STRING: JsonSchema = { type: 'string' };
export const NULLABLE_STRING: JsonSchema = { type: ['string', 'null'] };

/** The schema of a value fixed in the flow: its type, and the value itself for scalars. */
export function literalSchema(value: JsonValue): JsonSchema {
  if (value === null) return { type: 'null' };
  if (Array.isArray(value)) return arraySchema(value.map(literalSchema));
  switch (typeof value) {
    case 'string':
      return { type: 'string', const: value };
    case 'boolean':
      return { type: 'boolean', const: value };
    case 'number':
      return { type: Number.isInteger(value) ? 'integer' : 'number', const: value };
    default:
      return objectSchema(Object.entries(value).map(([key, item]) => [key, literalSchema(item)]));
  }
}

/** An object whose every listed key is present (Respond writes each key, null when a reference is missing). */
export function objectSchema(entries: Array<[string, JsonSchema]>): JsonSchema {
  if (entries.length === 0) return { type: 'object' };
  return { type: 'object', properties: Object.fromEntries(entries), required: entries.map(([key]) => key) };
}

export function arraySchema(items: JsonSchema[]): JsonSchema {
  return items.length === 0 ? { type: 'array' } : { type: 'array', items: oneOfSchemas(items) };
}

/** One schema for values that may follow any of these: itself when they agree, else `anyOf`. */
export function oneOfSchemas(schemas: readonly JsonSchema[]): JsonSchema {
  const distinct = new Map<string, JsonSchema>();
  for (const schema of schemas) {
    // An unknown value absorbs every other possibility.
    if (Object.keys(schema).length === 0) return ANY;
    for (const branch of (schema.anyOf as JsonSchema[] | undefined) ?? [schema]) distinct.set(JSON.stringify(branch), branch);
  }
  const all = [...distinct.values()];
  if (all.length === 0) return ANY;
  return all.length === 1 ? all[0]! : { anyOf: all };
}

/** The schema of the value below `path` in a value of `schema`; ANY where the schema does not say. */
export function schemaAtPath(schema: JsonSchema, path: readonly string[]): JsonSchema {
  if (path.length === 0) return schema;
  const [first, ...rest] = path as [string, ...string[]];
  if (Array.isArray(schema.anyOf)) return oneOfSchemas((schema.anyOf as JsonSchema[]).map((branch) => schemaAtPath(branch, path)));
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties && Object.prototype.hasOwnProperty.call(properties, first)) return schemaAtPath(properties[first]!, rest);
  const items = schema.items as JsonSchema | undefined;
  if (items && /^\d+$/.test(first)) return schemaAtPath(items, rest);
  const additional = schema.additionalProperties;
  // A key the object may lack: its value, or null when it is missing.
  if (additional && typeof additional === 'object' && !Array.isArray(additional)) return orNull(schemaAtPath(additional, rest));
  return ANY;
}

function orNull(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === 'string') return { ...schema, type: type === 'null' ? type : [type, 'null'] };
  if (Array.isArray(type)) return { ...schema, type: type.includes('null') ? type : [...type, 'null'] };
  return ANY;
}
