import type { JsonValue } from '../json';
import type { Reference, TemplateAst } from './template-ast';

/**
 * `{` + a root name + dot-separated segments + `}`. Anything else — `{ "a": 1 }`, `{}`,
 * `{a b}` — is literal text, so JSON written into a text field stays intact.
 */
const REFERENCE_PATTERN = /\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)\}/g;

const ROOTS_WITHOUT_NAME = new Set(['current_time', 'current_date', 'uuid']);

/** Parses one template value: strings are templates, objects and arrays are walked, the rest is literal. */
export function parseTemplate(value: JsonValue): TemplateAst {
  if (typeof value === 'string') return parseTemplateText(value);
  if (Array.isArray(value)) {
    const items = value.map(parseTemplate);
    return items.every(isLiteral) ? { kind: 'literal', value } : { kind: 'array', items };
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]): [string, TemplateAst] => [key, parseTemplate(item)]);
    return entries.every(([, item]) => isLiteral(item)) ? { kind: 'literal', value } : { kind: 'object', entries };
  }
  return { kind: 'literal', value };
}

export function parseTemplateText(source: string): TemplateAst {
  const parts: Array<string | Reference> = [];
  let last = 0;
  for (const match of source.matchAll(REFERENCE_PATTERN)) {
    if (match.index > last) parts.push(source.slice(last, match.index));
    parts.push(parseReference(match[1]));
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return { kind: 'literal', value: source };
  if (last < source.length) parts.push(source.slice(last));
  const [only] = parts;
  if (parts.length === 1 && typeof only !== 'string') return { kind: 'reference', ref: only };
  return { kind: 'text', parts };
}

/** Classifies `a.b.c` (already known to be well-formed). */
export function parseReference(text: string): Reference {
  const [root, ...rest] = text.split('.');
  switch (root) {
    case 'params':
      return rest.length > 0 ? { source: 'param', name: rest[0], path: rest.slice(1), text } : invalid(text);
    case 'local':
    case 'result':
      return rest.length > 0 ? { source: 'var', name: rest[0], path: rest.slice(1), text, via: root } : invalid(text);
    case 'body':
      return { source: 'body', path: rest, text };
    case 'secrets':
      return rest.length > 0 ? { source: 'secret', name: rest[0], path: rest.slice(1), text } : invalid(text);
    case 'input':
      return rest.length > 0 ? { source: 'input', name: rest[0], path: rest.slice(1), text } : invalid(text);
    case 'schedule':
      return rest.length > 0 ? { source: 'schedule', name: rest[0], path: rest.slice(1), text } : invalid(text);
    case 'request':
      return parseRequestReference(rest, text);
    default:
      if (ROOTS_WITHOUT_NAME.has(root)) return { source: root as Reference['source'], path: rest, text };
      return { source: 'var', name: root, path: rest, text, via: 'block' };
  }
}

function parseRequestReference([field, ...rest]: string[], text: string): Reference {
  switch (field) {
    case 'body':
      return { source: 'body', path: rest, text };
    case 'headers':
      return rest.length === 0
        ? { source: 'headers', path: [], text }
        : { source: 'header', name: rest[0].toLowerCase(), path: rest.slice(1), text };
    case 'method':
    case 'path':
      return { source: field, path: rest, text };
    default:
      return invalid(text);
  }
}

const invalid = (text: string): Reference => ({ source: 'invalid', path: [], text });

const isLiteral = (ast: TemplateAst): boolean => ast.kind === 'literal';

/** Every reference inside a template, in reading order. */
export function referencesOf(ast: TemplateAst): Reference[] {
  switch (ast.kind) {
    case 'literal':
      return [];
    case 'reference':
      return [ast.ref];
    case 'text':
      return ast.parts.filter((part): part is Reference => typeof part !== 'string');
    case 'object':
      return ast.entries.flatMap(([, item]) => referencesOf(item));
    case 'array':
      return ast.items.flatMap(referencesOf);
  }
}
