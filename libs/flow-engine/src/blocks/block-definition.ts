import { z } from 'zod';
import type { BlockDiagnostics, CompileContext } from '../diagnostics/diagnostic';
import type { JsonValue } from '../json';
import type { FlowRun } from '../runtime/flow-run';
import { templateAstSchema, type TemplateAst } from '../template/template-ast';
import { parseTemplate } from '../template/template-parser';
import type { Resolver } from '../template/template-resolver';

/**
 * A block's config schema is written once, as a function of a kit, and yields three schemas:
 * - `source`: what the editor stores; template fields are plain JSON (the catalogue's schema);
 * - `compile`: the same, parsing every template field into its AST (used by compileFlow);
 * - `compiled`: the stored AST form (used by prepareFlow to refuse a malformed document).
 */
export type KitMode = 'source' | 'compile' | 'compiled';
export type TemplateOut<M extends KitMode, T> = M extends 'source' ? T : TemplateAst;

export interface ConfigKit<M extends KitMode> {
  /** A field whose string leaves are templates: "Hello {params.name}". */
  template<S extends z.ZodType<JsonValue>>(source: S): z.ZodType<TemplateOut<M, z.output<S>>>;
}

export type ConfigSchemaFactory = <M extends KitMode>(kit: ConfigKit<M>) => z.ZodObject;

export const sourceKit: ConfigKit<'source'> = {
  // Tagged so the Workshop knows which fields take references (and offers completion there).
  template: <S extends z.ZodType<JsonValue>>(source: S) => source.meta({ template: true }) as unknown as z.ZodType<z.output<S>>,
};
export const compileKit: ConfigKit<'compile'> = {
  template: (source) => source.transform((value) => parseTemplate(value)),
};
export const compiledKit: ConfigKit<'compiled'> = {
  template: () => templateAstSchema,
};

export type BlockCategory = 'trigger' | 'data' | 'text' | 'logic' | 'tables' | 'integrations' | 'output';

/**
 * How the flow goes on after the block: to its one next block, by its `true`/`false` handle
 * (the executor returns a boolean), not at all (the executor sets `run.result`), or, for a
 * loop, through its body once per item (`each`) and then on (`done`).
 */
export type BlockFlow = 'next' | 'branch' | 'end' | 'loop';

/** A name a block writes, and which first path segments after it can ever hold a value. */
export interface BlockOutput {
  name: string;
  /** null: anything below may exist; []: a scalar (text, URL), nothing below it. */
  fields: readonly string[] | null;
  /** True when `{NAME.…}` (without `result.`) reads it: Send External Request. */
  readableByName: boolean;
  /** A For Each's names: its item is read only in its body, its collected list only after it. Default: everywhere after the block. */
  scope?: 'body' | 'after';
}

export interface CheckContext {
  /** The endpoint's method (GET, POST, …). */
  method: string;
  context: CompileContext;
}

export interface PrepareContext {
  readonly nodeId: string;
  readonly label: string;
  value(ast: TemplateAst): Resolver;
  text(ast: TemplateAst): Resolver<string>;
  /** Slot in `FlowRun.vars` of a variable / result name (the last one asked for is the block's traced output). */
  variable(name: string): number;
  /** Whether the block's `error` handle is connected (a block that reports failures as data then throws them). */
  readonly hasErrorPath: boolean;
  /** A loop's body, run in an iteration's scope (see `runIterations`). */
  body(run: FlowRun): void | Promise<void>;
}

/** What runs for one block: a boolean for `branch`, a promise for `async` blocks. */
export type BlockExecutor = (run: FlowRun) => unknown;

export interface BlockDefinition<Config> {
  readonly type: string;
  readonly label: string;
  readonly category: BlockCategory;
  /** One line for the editor's action pool. */
  readonly description: string;
  readonly config: ConfigSchemaFactory;
  readonly flow: BlockFlow;
  /** The kinds of flow the block may be used in; absent: every kind. */
  readonly usableIn?: ReadonlyArray<'endpoint' | 'function' | 'schedule'>;
  /** Calls a port; the executor awaits it under the deadline. */
  readonly async?: boolean;
  /**
   * Can fail on its own (a port, input it cannot read): the block may then have an `error`
   * handle, where a failure goes on with `{REF.error}`. A function when it depends on the config
   * (Match Regex: only with a pattern built at run time).
   */
  readonly canFail?: boolean | ((config: Config) => boolean);
  /** Names the block writes (for reference checks and slot allocation). */
  outputs?(config: Config): BlockOutput[];
  /** Checks the schema cannot express (regex syntax, sender domain, …). */
  check?(config: Config, diagnostics: BlockDiagnostics, context: CheckContext): void;
  /** Builds the executor once per prepared flow; throws on a malformed config. */
  prepare(config: Config, context: PrepareContext): BlockExecutor;
}

/** Whether a block with this config may have an `error` handle; a config that does not parse (null) is given the benefit of the doubt. */
export function blockCanFail<Config>(definition: BlockDefinition<Config>, config: Config | null): boolean {
  const rule = definition.canFail ?? false;
  return typeof rule === 'function' ? config === null || rule(config) : rule;
}

export const defineBlock = <Config>(definition: BlockDefinition<Config>): BlockDefinition<Config> => definition;

/** A text field that also accepts a number or boolean typed into it. */
export const textSource = (title: string) =>
  z
    .union([z.string(), z.number(), z.boolean()])
    .transform((value) => String(value))
    .meta({ title });

/** Any JSON whose string leaves are templates (Respond body, Set Variable value, Condition sides). */
export const valueSource = (title: string) => z.json().meta({ title });
