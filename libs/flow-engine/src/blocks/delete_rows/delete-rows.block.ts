import { z } from 'zod';
import type { ConfigKit, KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { defineTableBlock, filterField, prepareFilter, tableField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    // Not empty: deleting every row is a mistake more often than an intent.
    filter: filterField(kit).min(1, { error: 'needs at least one condition' }),
    ref: refField(),
  });
type DeleteRowsConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const deleteRowsBlock = defineTableBlock<DeleteRowsConfig>({
  type: 'delete_rows',
  label: 'Delete Rows',
  description: 'Deletes the rows that match every condition: {result.REF.count} is how many.',
  config,
  fields: ['count'],
  prepare: ({ table, filter }, context) => {
    const conditions = prepareFilter(filter, context);
    return async (run, data) => ({ count: await data.delete(table, conditions(run), run.signal) });
  },
});
