import { z } from 'zod';
import { defineBlock, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { checkTable, dataFailure, dataPort, filterField, prepareFilter, tableField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    // Not empty: deleting every row is a mistake more often than an intent.
    filter: filterField(kit).min(1, { error: 'needs at least one condition' }),
    ref: refField(),
  });
type DeleteRowsConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const deleteRowsBlock = defineBlock<DeleteRowsConfig>({
  type: 'delete_rows',
  label: 'Delete Rows',
  category: 'tables',
  description: 'Deletes the rows that match every condition: {result.REF.count} is how many.',
  config,
  flow: 'next',
  async: true,
  outputs: ({ ref }) => [{ name: ref, fields: ['count'], readableByName: false }],
  check: (config, diagnostics, { context }) => checkTable(config, diagnostics, context),
  prepare: ({ table, filter, ref }, context) => {
    const slot = context.variable(ref);
    const conditions = prepareFilter(filter, context);
    return async (run) => {
      let count;
      try {
        count = await dataPort(run).delete(table, conditions(run), run.signal);
      } catch (error) {
        throw dataFailure(run, error);
      }
      run.keep(slot, { count });
    };
  },
});
