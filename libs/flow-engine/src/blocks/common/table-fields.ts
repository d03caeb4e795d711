import { z } from 'zod';
import { columnTypeOf, DATA_NAME_PATTERN, DATA_NAME_RULE, FILTER_OPERATORS, MAX_FILTER_CONDITIONS, MAX_ROWS_PER_QUERY, operatorProblem, SYSTEM_COLUMNS, VALUELESS_OPERATORS } from '@flowgate/contracts';
import type { BlockDiagnostics, CompileContext } from '../../diagnostics/diagnostic';
import { DataPortError, type DataCondition, type DataPort } from '../../ports';
import type { FlowRun } from '../../runtime/flow-run';
import { BlockFailure } from '../../runtime/run-errors';
import type { TemplateAst } from '../../template/template-ast';
import type { Resolver } from '../../template/template-resolver';
import { defineBlock, valueSource, type BlockDefinition, type ConfigKit, type ConfigSchemaFactory, type KitMode, type PrepareContext } from '../block-definition';
import { portFailure } from './port-failure';

/** The fields every table block shares; `table` is the table's name (the Workshop offers the project's tables). */
export const tableField = () => z.string().regex(DATA_NAME_PATTERN, { error: DATA_NAME_RULE }).meta({ title: 'Table', dataTable: 'table' });

const columnField = () => z.string().min(1, { error: 'is required' }).meta({ title: 'Column', dataTable: 'column' });

export const filterField = <M extends KitMode>(kit: ConfigKit<M>) =>
  z
    .array(
      z.object({
        column: columnField(),
        operator: z.enum(FILTER_OPERATORS).default('eq').meta({ title: 'Operator' }),
        value: kit.template(valueSource('Value')).optional(),
      }),
    )
    .max(MAX_FILTER_CONDITIONS)
    .meta({ title: 'Filter' });

export const valuesField = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.record(z.string().regex(DATA_NAME_PATTERN, { error: DATA_NAME_RULE }), kit.template(valueSource('Value'))).meta({ title: 'Values', dataTable: 'values' });

export const sortField = () =>
  z
    .object({ column: columnField(), direction: z.enum(['asc', 'desc']).default('asc').meta({ title: 'Direction' }) })
    .nullable()
    .default(null)
    .meta({ title: 'Sort' });

export const limitField = () => z.number().int().min(1).max(MAX_ROWS_PER_QUERY).default(100).meta({ title: 'Limit' });

type CompiledCondition = { column: string; operator: DataCondition['operator']; value?: TemplateAst };

/** Deploy checks against the project's tables, when the caller knows them. */
export function checkTable(
  config: { table: string; filter?: CompiledCondition[]; sort?: { column: string } | null; values?: Record<string, unknown> },
  diagnostics: BlockDiagnostics,
  context: CompileContext,
  options: { requiredValues?: boolean } = {},
): void {
  if (context.tables === undefined) return;
  const table = context.tables.find((candidate) => candidate.name === config.table);
  if (!table) {
    diagnostics.error('unknown_table', 'table', `the project has no table ${config.table}.`);
    return;
  }
  config.filter?.forEach((condition, index) => {
    const type = columnTypeOf(table.columns, condition.column);
    if (type === null) return diagnostics.error('unknown_column', `filter.${index}.column`, `${config.table} has no column ${condition.column}.`);
    const problem = operatorProblem(condition.operator, type);
    if (problem !== null) diagnostics.error('operator_type_mismatch', `filter.${index}.operator`, `${condition.column}: ${problem}.`);
    if (!VALUELESS_OPERATORS.has(condition.operator) && condition.value === undefined)
      diagnostics.error('missing_value', `filter.${index}.value`, `the condition on ${condition.column} needs a value.`);
  });
  if (config.sort && columnTypeOf(table.columns, config.sort.column) === null)
    diagnostics.error('unknown_column', 'sort.column', `${config.table} has no column ${config.sort.column}.`);
  if (config.values) {
    for (const name of Object.keys(config.values)) {
      if ((SYSTEM_COLUMNS as readonly string[]).includes(name)) diagnostics.error('unknown_column', `values.${name}`, `${name} is set by Flowgate, not by a flow.`);
      else if (!table.columns.some((column) => column.name === name)) diagnostics.error('unknown_column', `values.${name}`, `${config.table} has no column ${name}.`);
    }
    if (options.requiredValues)
      for (const column of table.columns)
        if ((column as { required?: boolean }).required && !(column.name in config.values))
          diagnostics.error('missing_required_column', 'values', `${config.table} requires a value for ${column.name}.`);
  }
}

/** Resolves the filter's values for one run. */
export function prepareFilter(filter: CompiledCondition[], context: PrepareContext): (run: FlowRun) => DataCondition[] {
  const resolvers = filter.map((condition) => ({ ...condition, resolve: condition.value === undefined ? null : context.value(condition.value) }));
  return (run) => resolvers.map(({ column, operator, resolve }) => (resolve === null ? { column, operator } : { column, operator, value: resolve(run) }));
}

export function prepareValues(values: Record<string, TemplateAst>, context: PrepareContext): (run: FlowRun) => Record<string, unknown> {
  const resolvers = Object.entries(values).map(([name, ast]) => [name, context.value(ast)] as const);
  return (run) => {
    const out: Record<string, unknown> = {};
    for (const [name, resolve] of resolvers as Array<readonly [string, Resolver]>) out[name] = resolve(run);
    return out;
  };
}

/** The project's data port, or a failure saying there is none. */
export function dataPort(run: FlowRun): DataPort {
  if (!run.ports.data) throw new BlockFailure('data tables are not available (no data database configured)');
  return run.ports.data;
}

/** A port call's failure as the flow's answer: the port's own refusals keep their code. */
export function dataFailure(run: FlowRun, error: unknown): Error {
  if (error instanceof DataPortError && !run.signal.aborted) return error;
  return portFailure(run, error, 'the table operation');
}

/** What every table block's config has: the table, what the deploy checks read, and the name it keeps its result under. */
type TableBlockConfig = Parameters<typeof checkTable>[0] & { ref: string };

/**
 * A block of the `tables` category: it runs after the previous block, is awaited (it calls the
 * data port), is checked against the project's tables at deploy (`requiredValues`: every
 * required column needs a value), and keeps under `ref` what its call returns — an object with
 * `fields`, or a row (`fields: null`). A failed call is the flow's answer (`dataFailure`).
 */
export function defineTableBlock<Config extends TableBlockConfig>(block: {
  type: string;
  label: string;
  description: string;
  config: ConfigSchemaFactory;
  fields: readonly string[] | null;
  requiredValues?: boolean;
  /** Once per prepared flow: the call the block makes on each run. */
  prepare(config: Config, context: PrepareContext): (run: FlowRun, data: DataPort) => Promise<unknown>;
}): BlockDefinition<Config> {
  const { fields, requiredValues = false, prepare, ...definition } = block;
  return defineBlock<Config>({
    ...definition,
    category: 'tables',
    flow: 'next',
    async: true,
    canFail: true,
    outputs: ({ ref }) => [{ name: ref, fields, readableByName: false }],
    check: (config, diagnostics, { context }) => checkTable(config, diagnostics, context, requiredValues ? { requiredValues } : {}),
    prepare: (config, context) => {
      const slot = context.variable(config.ref);
      const call = prepare(config, context);
      return async (run) => {
        let result;
        try {
          result = await call(run, dataPort(run));
        } catch (error) {
          throw dataFailure(run, error);
        }
        run.keep(slot, result);
      };
    },
  });
}
