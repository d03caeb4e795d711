import { z } from 'zod';
import { defineBlock, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { checkTable, dataFailure, dataPort, filterField, prepareFilter, prepareValues, tableField, valuesField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    // Not empty: changing every row is a mistake more often than an intent.
    filter: filterField(kit).min(1, { error: 'needs at least one condition' }),
    values: valuesField(kit),
    ref: refField(),
  });
type UpdateRowsConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const updateRowsBlock = defineBlock<UpdateRowsConfig>({
  type: 'update_rows',
  label: 'Update Rows',
  category: 'tables',
  description: 'Sets values on the rows that match every condition: {result.REF.count} and {result.REF.rows}.',
  config,
  flow: 'next',
  async: true,
  outputs: ({ ref }) => [{ name: ref, fields: ['rows', 'count'], readableByName: false }],
  check: (config, diagnostics, { context }) => checkTable(config, diagnostics, context),
  prepare: ({ table, filter, values, ref }, context) => {
    const slot = context.variable(ref);
    const conditions = prepareFilter(filter, context);
    const resolve = prepareValues(values, context);
    return async (run) => {
      let rows;
      try {
        rows = await dataPort(run).update(table, conditions(run), resolve(run), run.signal);
      } catch (error) {
        throw dataFailure(run, error);
      }
      run.keep(slot, { count: rows.length, rows });
    };
  },
});
