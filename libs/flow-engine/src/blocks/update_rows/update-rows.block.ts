import { z } from 'zod';
import type { ConfigKit, KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { defineTableBlock, filterField, prepareFilter, prepareValues, tableField, valuesField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    // Not empty: changing every row is a mistake more often than an intent.
    filter: filterField(kit).min(1, { error: 'needs at least one condition' }),
    values: valuesField(kit),
    ref: refField(),
  });
type UpdateRowsConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const updateRowsBlock = defineTableBlock<UpdateRowsConfig>({
  type: 'update_rows',
  label: 'Update Rows',
  description: 'Sets values on the rows that match every condition: {result.REF.count} and {result.REF.rows}.',
  config,
  fields: ['rows', 'count'],
  prepare: ({ table, filter, values }, context) => {
    const conditions = prepareFilter(filter, context);
    const resolve = prepareValues(values, context);
    return async (run, data) => {
      const rows = await data.update(table, conditions(run), resolve(run), run.signal);
      return { count: rows.length, rows };
    };
  },
});
