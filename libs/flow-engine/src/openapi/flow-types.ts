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
  /** A For Each's item / index (`body`) or its collected list (`after`). */
  scope?: 'body' | 'after';
  name: string;
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
    /** The project's live functions by id: what Call Function gives is what the function returns. */
    private readonly functions: ReadonlyMap<string, CompiledFlow> = new Map(),
  ) {
    flow.blocks.forEach((block, index) => {
      const outputs = blockRegistry.get(block.type)?.definition.outputs?.(block.config) ?? [];
      for (const output of outputs) {
        const list = this.writers.get(output.name) ?? [];
        list.push({ index, block, readableByName: output.readableByName, scope: output.scope, name: output.name });
        this.writers.set(output.name, list);
      }
    });
    this.ancestors = ancestorsOf(flow);
    this.bodies = loopBodies(flow);
  }

  private readonly bodies: ReadonlyMap<number, ReadonlySet<number>>;

  /** The schema of a template's value when it is resolved at block `index`. */
  valueAt(ast: TemplateAst, index: number, depth = 0): JsonSchema {
    return this.valueWith(ast, this.ancestors[index] ?? new Set<number>(), depth);
  }

  /** The same, with the blocks that ran before given as a set. */
  private valueWith(ast: TemplateAst, before: ReadonlySet<number>, depth: number): JsonSchema {
    switch (ast.kind) {
      case 'literal':
        return literalSchema(ast.value);
      case 'text':
        return STRING;
      case 'reference':
        return this.referenceAt(ast.ref, before, depth);
      case 'object':
        return objectSchema(ast.entries.map(([key, item]) => [key, this.valueWith(item, before, depth)]));
      case 'array':
        return arraySchema(ast.items.map((item) => this.valueWith(item, before, depth)));
    }
  }

  private referenceAt(ref: Reference, before: ReadonlySet<number>, depth: number): JsonSchema {
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
        return depth >= MAX_DEPTH ? ANY : this.variableAt(ref, before, depth);
      default:
        return ANY;
    }
  }

  /** Every block before `index` that may have written the name; their types combined. */
  private variableAt(ref: Reference, before: ReadonlySet<number>, depth: number): JsonSchema {
    const writers = (this.writers.get(ref.name ?? '') ?? []).filter(
      (writer) => before.has(writer.index) && (ref.via !== 'block' || writer.readableByName),
    );
    if (writers.length === 0) return ANY;
    return oneOfSchemas(writers.map((writer) => schemaAtPath(this.written(writer, depth), ref.path)));
  }

  private written(writer: Writer, depth: number): JsonSchema {
    const { block, index: at } = writer;
    if (writer.scope !== undefined) return this.loopValue(writer, depth);
    if (block.type === 'call_function') return this.returnedBy(block.config.function, depth);
    const shape = outputShape(block.type, block.config, this.tables);
    return 'schema' in shape ? shape.schema : this.valueAt(shape.template, at, depth + 1);
  }

  /** What a function returns: the values of its Return blocks (null when it ends without one), as far as its flow fixes them. */
  private returnedBy(functionId: unknown, depth: number): JsonSchema {
    const called = typeof functionId === 'string' ? this.functions.get(functionId) : undefined;
    if (called === undefined || depth >= MAX_DEPTH) return ANY;
    const types = new FlowTypes(called, new Map(), this.tables, this.functions);
    const returned = called.blocks.flatMap((block, index) => (block.type === 'return_value' ? [types.valueAt(block.config.value as TemplateAst, index, depth + 1)] : []));
    return returned.length === 0 ? { type: 'null' } : oneOfSchemas(returned);
  }

  /** A For Each's names: its item (an element of the list), its index, or the list of `collect` values (the count without). */
  private loopValue({ block, index, scope, name }: Writer, depth: number): JsonSchema {
    const collect = block.config.collect as TemplateAst | undefined;
    if (scope === 'after') {
      if (collect === undefined) return { type: 'integer', minimum: 0 };
      // `collect` is read as an iteration ends: every block of the body may have run.
      const before = new Set([...(this.ancestors[index] ?? []), index, ...(this.bodies.get(index) ?? [])]);
      return { type: 'array', items: this.valueWith(collect, before, depth + 1) };
    }
    if (name !== block.config.item) return { type: 'integer', minimum: 0 };
    const list = this.valueAt(block.config.list as TemplateAst, index, depth + 1);
    return list.type === 'array' && list.items !== undefined && typeof list.items === 'object' && !Array.isArray(list.items) ? (list.items as JsonSchema) : ANY;
  }
}

/** The blocks of each For Each's body, by the For Each's index. */
export function loopBodies(flow: CompiledFlow): Map<number, Set<number>> {
  const bodies = new Map<number, Set<number>>();
  flow.blocks.forEach((block, index) => {
    if (block.body === undefined || block.body === null) return;
    const body = new Set<number>();
    const queue = [block.body];
    while (queue.length > 0) {
      const at = queue.pop() as number;
      if (body.has(at) || at <= index || at >= flow.blocks.length) continue;
      body.add(at);
      const inner = flow.blocks[at]!;
      for (const next of [inner.next, inner.next_when_false, inner.body, inner.on_error]) if (next !== null && next !== undefined) queue.push(next);
    }
    bodies.set(index, body);
  });
  return bodies;
}

/** For each block, the blocks that can run before it (compiled blocks point forward only). */
function ancestorsOf(flow: CompiledFlow): Array<ReadonlySet<number>> {
  const result = flow.blocks.map(() => new Set<number>());
  flow.blocks.forEach((block, index) => {
    for (const next of [block.next, block.next_when_false, block.body, block.on_error]) {
      if (next === null || next === undefined || next <= index) continue;
      const target = result[next]!;
      target.add(index);
      for (const earlier of result[index]!) target.add(earlier);
    }
  });
  return result;
}

