import { z } from 'zod';
import { defineBlock, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { checkTable, dataFailure, dataPort, prepareValues, tableField, valuesField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    values: valuesField(kit).default({}),
    ref: refField(),
  });
type InsertRowConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const insertRowBlock = defineBlock<InsertRowConfig>({
  type: 'insert_row',
  label: 'Insert Row',
  category: 'tables',
  description: 'Adds a row to a table: {result.REF} is the new row with its id.',
  config,
  flow: 'next',
  async: true,
  outputs: ({ ref }) => [{ name: ref, fields: null, readableByName: false }],
  check: (config, diagnostics, { context }) => checkTable(config, diagnostics, context, { requiredValues: true }),
  prepare: ({ table, values, ref }, context) => {
    const slot = context.variable(ref);
    const resolve = prepareValues(values, context);
    return async (run) => {
      let row;
      try {
        row = await dataPort(run).insert(table, resolve(run), run.signal);
      } catch (error) {
        throw dataFailure(run, error);
      }
      run.keep(slot, row);
    };
  },
});
