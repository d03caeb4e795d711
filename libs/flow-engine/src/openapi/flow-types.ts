import type { DataTableShape } from '@flowgate/contracts';
import type { CompiledBlock, CompiledFlow } from '../compile/compiled-flow';
import { blockRegistry } from '../blocks/registry';
import type { Reference, TemplateAst } from '../template/template-ast';
import { ANY, arraySchema, literalSchema, NULLABLE_STRING, objectSchema, oneOfSchemas, schemaAtPath, STRING, type JsonSchema } from './json-schema';
import { outputShape } from './output-schemas';

/** Set Variable chains deeper than this are described as any value (they cannot loop, but may be long). */
const MAX_DEPTH = 16;

interface Writer {
  index: number;
  block: CompiledBlock;
  readableByName: boolean;
}

/**
 * The types of the values a compiled flow works with, as far as the flow itself fixes them:
 * literals, text, and what the blocks before a given one write under a name.
 */
export class FlowTypes {
  private readonly writers = new Map<string, Writer[]>();
  private readonly ancestors: Array<ReadonlySet<number>>;

  constructor(
    private readonly flow: CompiledFlow,
    private readonly paramDefaults: ReadonlyMap<string, string | null>,
    private readonly tables: readonly DataTableShape[] = [],
  ) {
    flow.blocks.forEach((block, index) => {
      const outputs = blockRegistry.get(block.type)?.definition.outputs?.(block.config) ?? [];
      for (const output of outputs) {
        const list = this.writers.get(output.name) ?? [];
        list.push({ index, block, readableByName: output.readableByName });
        this.writers.set(output.name, list);
      }
    });
    this.ancestors = ancestorsOf(flow);
  }

  /** The schema of a template's value when it is resolved at block `index`. */
  valueAt(ast: TemplateAst, index: number, depth = 0): JsonSchema {
    switch (ast.kind) {
      case 'literal':
        return literalSchema(ast.value);
      case 'text':
        return STRING;
      case 'reference':
        return this.referenceAt(ast.ref, index, depth);
      case 'object':
        return objectSchema(ast.entries.map(([key, item]) => [key, this.valueAt(item, index, depth)]));
      case 'array':
        return arraySchema(ast.items.map((item) => this.valueAt(item, index, depth)));
    }
  }

  private referenceAt(ref: Reference, index: number, depth: number): JsonSchema {
    switch (ref.source) {
      case 'param':
        // The request's value, else the default, else null.
        return this.paramDefaults.get(ref.name ?? '') === null ? NULLABLE_STRING : STRING;
      case 'header':
        return NULLABLE_STRING;
      case 'headers':
        return schemaAtPath({ type: 'object', additionalProperties: STRING }, ref.path);
      case 'method':
      case 'path':
      case 'secret':
        return STRING;
      case 'current_time':
        return { type: 'string', format: 'date-time' };
      case 'current_date':
        return { type: 'string', format: 'date' };
      case 'uuid':
        return { type: 'string', format: 'uuid' };
      case 'var':
        return depth >= MAX_DEPTH ? ANY : this.variableAt(ref, index, depth);
      default:
        return ANY;
    }
  }

  /** Every block before `index` that may have written the name; their types combined. */
  private variableAt(ref: Reference, index: number, depth: number): JsonSchema {
    const before = this.ancestors[index] ?? new Set<number>();
    const writers = (this.writers.get(ref.name ?? '') ?? []).filter(
      (writer) => before.has(writer.index) && (ref.via !== 'block' || writer.readableByName),
    );
    if (writers.length === 0) return ANY;
    return oneOfSchemas(
      writers.map(({ block, index: at }) => {
        const shape = outputShape(block.type, block.config, this.tables);
        const schema = 'schema' in shape ? shape.schema : this.valueAt(shape.template, at, depth + 1);
        return schemaAtPath(schema, ref.path);
      }),
    );
  }
}

/** For each block, the blocks that can run before it (compiled blocks point forward only). */
function ancestorsOf(flow: CompiledFlow): Array<ReadonlySet<number>> {
  const result = flow.blocks.map(() => new Set<number>());
  flow.blocks.forEach((block, index) => {
    for (const next of [block.next, block.next_when_false]) {
      if (next === null || next === undefined || next <= index) continue;
      const target = result[next]!;
      target.add(index);
      for (const earlier of result[index]!) target.add(earlier);
    }
  });
  return result;
}

