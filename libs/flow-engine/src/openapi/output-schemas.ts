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

/**
 * The value each block type writes, by the `{result.REF}` / `{local.NAME}` / `{NAME.…}` name the
 * engine's `outputs()` gives it. Kept beside the API description (the only reader) so a block's
 * runtime file stays about running; a type missing here is described as any JSON value.
 */
export function outputShape(type: string, config: Record<string, unknown>): OutputShape {
  switch (type) {
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
