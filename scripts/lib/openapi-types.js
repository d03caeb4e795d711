// Turns the control plane's OpenAPI 3.0 document into TypeScript types for the dashboard:
// one type per component schema (`ProjectDto_Output` → `ProjectDto`) and an `Operations`
// map keyed by "METHOD /path" with its path parameters, JSON body and success response.
// Pure and dependency-free; test/contracts/dashboard-api-types.int.spec.ts runs it on the
// live document and fails when the committed file differs (`npm run api:types` rewrites it).
'use strict';

const HEADER = `// Generated from the control plane's OpenAPI document by scripts/lib/openapi-types.js.
// Do not edit: run \`npm run api:types\` after changing a control-plane DTO.
/* eslint-disable */
`;

const typeName = (ref) => ref.replace('#/components/schemas/', '').replace(/_Output$/, '');
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

function literal(value) {
  return JSON.stringify(value);
}

/** The TypeScript type of one JSON schema (the subset nestjs-zod produces). */
function toType(schema, indent = '') {
  if (!schema || Object.keys(schema).length === 0) return 'unknown';
  let type = baseType(schema, indent);
  if (schema.nullable && !type.endsWith('| null')) type = `${type} | null`;
  return type;
}

function baseType(schema, indent) {
  if (schema.$ref) return typeName(schema.$ref);
  if (schema.allOf) return schema.allOf.map((s) => toType(s, indent)).join(' & ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((s) => toType(s, indent)).join(' | ');
  if (schema.enum) return schema.enum.map(literal).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.map((t) => toType({ ...schema, type: t }, indent)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${toType(schema.items, indent)}>`;
    case 'object':
    case undefined:
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

function objectType(schema, indent) {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (properties.length === 0) return extra && extra !== true ? `{ [key: string]: ${toType(extra, indent)} }` : "{ [key: string]: unknown }";
  const required = new Set(schema.required ?? []);
  const inner = `${indent}  `;
  const lines = properties.map(([name, property]) => {
    const doc = property.description ? `${inner}/** ${property.description.replace(/\*\//g, '*\\/')} */\n` : '';
    return `${doc}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${toType(property, inner)};`;
  });
  if (extra) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function jsonSchemaOf(content) {
  return content?.['application/json']?.schema;
}

function operationType(path, operation) {
  const params = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => `${key(p.name)}: string`);
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
  const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
  const body = jsonSchemaOf(operation.requestBody?.content);
  const response = success ? jsonSchemaOf(success[1].content) : undefined;
  const queryType = query.length
    ? `{ ${query.map((p) => `${key(p.name)}${p.required ? '' : '?'}: ${toType(p.schema)}`).join('; ')} }`
    : 'never';
  return [
    `    params: { ${params.join('; ')}${params.length ? ' ' : ''}};`,
    `    query: ${queryType};`,
    `    body: ${body ? toType(body, '    ') : 'never'};`,
    `    response: ${response ? toType(response, '    ') : 'unknown'};`,
  ].join('\n');
}

/** The generated TypeScript source for an OpenAPI document. */
function openApiToTypes(document) {
  const out = [HEADER];
  const schemas = Object.entries(document.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, schema] of schemas) out.push(`export type ${typeName(name)} = ${toType(schema)};\n`);
  out.push('export interface Operations {');
  const paths = Object.entries(document.paths ?? {}).filter(([path]) => path.startsWith('/v1/'));
  for (const [path, item] of paths.sort(([a], [b]) => a.localeCompare(b))) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (!item[method]) continue;
      out.push(`  ${JSON.stringify(`${method.toUpperCase()} ${path}`)}: {\n${operationType(path, item[method])}\n  };`);
    }
  }
  out.push('}\n');
  return out.join('\n');
}

module.exports = { openApiToTypes };
