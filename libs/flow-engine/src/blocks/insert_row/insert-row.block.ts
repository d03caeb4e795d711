import { z } from 'zod';
import type { ConfigKit, KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { defineTableBlock, prepareValues, tableField, valuesField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    values: valuesField(kit).default({}),
    ref: refField(),
  });
type InsertRowConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const insertRowBlock = defineTableBlock<InsertRowConfig>({
  type: 'insert_row',
  label: 'Insert Row',
  description: 'Adds a row to a table: {result.REF} is the new row with its id.',
  config,
  fields: null,
  requiredValues: true,
  prepare: ({ table, values }, context) => {
    const resolve = prepareValues(values, context);
    return (run, data) => data.insert(table, resolve(run), run.signal);
  },
});
