import type { ColumnType, DataTableShape } from '@flowgate/contracts';
import type { TemplateAst } from '../template/template-ast';
import { ANY, NULLABLE_STRING, STRING, type JsonSchema } from './json-schema';

/** What a block stores under its name: a fixed schema, or the type of one of its templates (Set Variable). */
export type OutputShape = { schema: JsonSchema } | { template: TemplateAst };

const NULLABLE_STRINGS: JsonSchema = { type: 'array', items: NULLABLE_STRING };

const MATCH_RESULT: JsonSchema = {
  type: 'object',
  properties: { matches: { type: 'array', items: STRING }, captures: NULLABLE_STRINGS, isMatch: { type: 'boolean' } },
  required: ['matches', 'captures', 'isMatch'],
  // Named groups of the first match.
  additionalProperties: NULLABLE_STRING,
};

const HTTP_RESULT: JsonSchema = {
  type: 'object',
  properties: {
    status: { type: ['integer', 'null'] },
    headers: { type: 'object', additionalProperties: STRING },
    // Parsed JSON when the answer is JSON, else its text.
    body: ANY,
    // egress_blocked, timeout, connection_failed, response_too_large, …; null on an answer.
    error: NULLABLE_STRING,
  },
  required: ['status', 'body', 'error'],
};

const COLUMN_SCHEMA: Record<ColumnType, JsonSchema> = {
  text: STRING,
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  datetime: { type: 'string', format: 'date-time' },
  json: ANY,
};

/** A row of the table: id and times, and each column (null allowed unless required); any object when the table is unknown. */
function rowSchema(tables: readonly DataTableShape[], name: unknown): JsonSchema {
  const table = tables.find((candidate) => candidate.name === name);
  if (!table) return { type: 'object' };
  const properties: Record<string, JsonSchema> = {
    id: { type: 'string', format: 'uuid' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  };
  for (const column of table.columns) {
    const schema = COLUMN_SCHEMA[column.type];
    const required = (column as { required?: boolean }).required === true;
    properties[column.name] = required || column.type === 'json' ? schema : { ...schema, type: [schema.type as string, 'null'] };
  }
  return { type: 'object', properties, required: Object.keys(properties) };
}

const COUNT: JsonSchema = { type: 'integer', minimum: 0 };

/**
 * The value each block type writes, by the `{result.REF}` / `{local.NAME}` / `{NAME.…}` name the
 * engine's `outputs()` gives it. Kept beside the API description (the only reader) so a block's
 * runtime file stays about running; a type missing here is described as any JSON value.
 */
export function outputShape(type: string, config: Record<string, unknown>, tables: readonly DataTableShape[] = []): OutputShape {
  switch (type) {
    case 'query_rows':
    case 'update_rows':
      return { schema: { type: 'object', properties: { rows: { type: 'array', items: rowSchema(tables, config.table) }, count: COUNT }, required: ['rows', 'count'] } };
    case 'get_row':
      return { schema: { anyOf: [rowSchema(tables, config.table), { type: 'null' }] } };
    case 'insert_row':
      return { schema: rowSchema(tables, config.table) };
    case 'delete_rows':
      return { schema: { type: 'object', properties: { count: COUNT }, required: ['count'] } };
    case 'set_variable':
      return { template: config.value as TemplateAst };
    case 'encode_text':
    case 'decode_text':
      return { schema: STRING };
    case 'manipulate_text':
      return { schema: config.operation === 'split' ? { type: 'array', items: STRING } : STRING };
    case 'match_regex':
      return { schema: MATCH_RESULT };
    case 'http_request':
      return { schema: HTTP_RESULT };
    case 'manipulate_image':
      return { schema: { type: 'string', format: 'uri' } };
    // Null when the project has no text-generation integration (the block is skipped).
    case 'generate_text':
      return { schema: NULLABLE_STRING };
    default:
      return { schema: ANY };
  }
}
