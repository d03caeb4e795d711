import type { CompiledFlow } from '../compile/compiled-flow';
import { templateFields } from '../compile/template-fields';
import { referencesOf } from '../template/template-parser';
import { ANY, type JsonSchema } from './json-schema';

/** The segments read below a field; none: the field itself is read (any JSON value). */
interface FieldTree {
  children: Map<string, FieldTree>;
}

const newTree = (): FieldTree => ({ children: new Map() });

/**
 * The request body fields a flow reads (`{body.X}`, `{request.body.X.Y}`), as a schema: an
 * object listing them, nested where the flow reads below a field, an array where it reads by
 * index. Nothing is required: a missing field is null to the flow. Null when the flow reads
 * no body at all.
 */
export function bodySchemaOf(flow: CompiledFlow): JsonSchema | null {
  const root = newTree();
  let reads = false;
  for (const block of flow.blocks) {
    for (const { ast } of templateFields(block.config)) {
      for (const ref of referencesOf(ast)) {
        if (ref.source !== 'body') continue;
        reads = true;
        let node = root;
        for (const segment of ref.path) {
          let child = node.children.get(segment);
          if (!child) node.children.set(segment, (child = newTree()));
          node = child;
        }
      }
    }
  }
  if (!reads) return null;
  return root.children.size === 0 ? ANY : treeSchema(root);
}

function treeSchema(tree: FieldTree): JsonSchema {
  if (tree.children.size === 0) return ANY;
  const keys = [...tree.children.keys()];
  if (keys.every((key) => /^\d+$/.test(key))) {
    const items = [...tree.children.values()];
    return { type: 'array', items: items.length === 1 ? treeSchema(items[0]!) : ANY };
  }
  return {
    type: 'object',
    properties: Object.fromEntries([...tree.children].sort(([a], [b]) => a.localeCompare(b)).map(([key, child]) => [key, treeSchema(child)])),
  };
}

/** The same fields as a form (`application/x-www-form-urlencoded`): top-level names, text values. */
export function formSchemaOf(body: JsonSchema): JsonSchema {
  const properties = body.properties as Record<string, JsonSchema> | undefined;
  if (properties === undefined) return { type: 'object', additionalProperties: { type: 'string' } };
  return { type: 'object', properties: Object.fromEntries(Object.keys(properties).map((key) => [key, { type: 'string' }])) };
}
