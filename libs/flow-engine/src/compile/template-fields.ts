import { isTemplateAst, type TemplateAst } from '../template/template-ast';

export interface TemplateField {
  /** Dotted config path: `input`, `headers.2.value`. */
  field: string;
  ast: TemplateAst;
}

/**
 * Finds the templates in a compiled block config. Templates are AST nodes (objects whose
 * `kind` is literal/reference/text/object/array); no block config uses a `kind` key of its
 * own, and the walk never descends into an AST node.
 */
export function templateFields(config: unknown, path: string[] = []): TemplateField[] {
  if (isTemplateAst(config)) return [{ field: path.join('.'), ast: config }];
  if (config === null || typeof config !== 'object') return [];
  return Object.entries(config).flatMap(([key, value]) => templateFields(value, [...path, key]));
}
