import type { OpenApiDocument } from '../../api/api-description';

/** A JSON Schema as the API description writes it (the keywords the flow engine emits). */
export type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  maxProperties?: number;
  required?: string[];
  default?: unknown;
};

export type KeyNeeded = 'none' | 'any' | 'admin';

export interface OperationView {
  id: string;
  method: string;
  path: string;
  url: string;
  summary: string;
  key: KeyNeeded;
  parameters: Array<{ name: string; default: string | null; type: string; required: boolean }>;
  /** null: the method has no body. */
  body: Schema | null;
  /** The body is checked against a declared schema (a body that does not match is refused). */
  bodyChecked: boolean;
  /** The tool description when the endpoint is a tool of the project's MCP server, else null. */
  mcp: string | null;
  responses: Array<{ status: string; description: string; schema: Schema | null }>;
}

type RawOperation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  parameters?: Array<{ name: string; required?: boolean; schema?: Schema }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  'x-mcp'?: { description?: string };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document, in its order, ready to show. */
export function operationsOf(doc: OpenApiDocument): OperationView[] {
  const base = doc.servers?.[0]?.url ?? '';
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => {
      const op = item[method] as RawOperation;
      const responses = op.responses ?? {};
      return {
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        url: base + path,
        summary: op.summary ?? '',
        key: !op.security || op.security.length === 0 ? 'none' : responses['403'] ? 'admin' : 'any',
        parameters: (op.parameters ?? []).map((parameter) => ({
          name: parameter.name,
          default: parameter.schema?.default === undefined ? null : String(parameter.schema.default),
          type: schemaText({ ...parameter.schema, default: undefined }),
          required: parameter.required === true,
        })),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        bodyChecked: op.requestBody?.required === true,
        mcp: op['x-mcp'] === undefined ? null : (op['x-mcp'].description ?? op.summary ?? ''),
        responses: Object.entries(responses).map(([status, response]) => ({
          status,
          description: response.description ?? '',
          schema: response.content?.['application/json']?.schema ?? null,
        })),
      } satisfies OperationView;
    }),
  );
}

/** A schema in one line, TypeScript-like: `{ message: string; count: 20 }`. */
export function schemaText(schema: Schema | null | undefined, depth = 0): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (schema.anyOf) return schema.anyOf.map((branch) => schemaText(branch, depth)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const shown = types.map((type) => {
    if (type === 'array') return `${schema.items ? wrap(schemaText(schema.items, depth + 1)) : 'any'}[]`;
    if (type === 'object') return objectText(schema, depth);
    if (type === 'integer') return 'number';
    return schema.format && type === 'string' ? `string (${schema.format})` : type;
  });
  return shown.length === 0 ? 'any' : shown.join(' | ');
}

const wrap = (text: string): string => (text.includes(' | ') ? `(${text})` : text);

function objectText(schema: Schema, depth: number): string {
  if (schema.maxProperties === 0) return '{}';
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return 'object';
  if (depth >= 3) return '{ … }';
  return `{ ${entries.map(([key, value]) => `${key}: ${schemaText(value, depth + 1)}`).join('; ')} }`;
}

/** A value of the body schema to start from: the fields the flow reads, placeholders as values. */
export function sampleBody(schema: Schema | null): unknown {
  if (!schema) return undefined;
  if (!schema.properties) return {};
  return Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, sampleValue(key, value)]));
}

function sampleValue(key: string, schema: Schema): unknown {
  if (schema.properties) return sampleBody(schema);
  if (schema.type === 'array') return [];
  return `<${key}>`;
}
