import { isTemplateAst, type TemplateAst } from '../template/template-ast';

export interface TemplateField {
  /** Dotted config path down to the template leaf: `input`, `headers.2.value`, `body.user.name`. */
  field: string;
  ast: TemplateAst;
}

/**
 * Finds the templates in a compiled block config, down to their leaves inside JSON structures.
 * Templates are AST nodes (objects whose `kind` is literal/reference/text/object/array); no
 * block config uses a `kind` key of its own.
 */
export function templateFields(config: unknown, path: string[] = []): TemplateField[] {
  if (isTemplateAst(config)) return astLeaves(config, path);
  if (config === null || typeof config !== 'object') return [];
  return Object.entries(config).flatMap(([key, value]) => templateFields(value, [...path, key]));
}

function astLeaves(ast: TemplateAst, path: string[]): TemplateField[] {
  switch (ast.kind) {
    case 'object':
      return ast.entries.flatMap(([key, item]) => astLeaves(item, [...path, key]));
    case 'array':
      return ast.items.flatMap((item, index) => astLeaves(item, [...path, String(index)]));
    default:
      return [{ field: path.join('.'), ast }];
  }
}
