import { z } from 'zod';
import { defineBlock, textSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { checkTable, dataFailure, dataPort, tableField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    id: kit.template(textSource('Row id')),
    ref: refField(),
  });
type GetRowConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const getRowBlock = defineBlock<GetRowConfig>({
  type: 'get_row',
  label: 'Get Row',
  category: 'tables',
  description: 'Reads one row of a table by its id: {result.REF} is the row, or null when there is none.',
  config,
  flow: 'next',
  async: true,
  outputs: ({ ref }) => [{ name: ref, fields: null, readableByName: false }],
  check: (config, diagnostics, { context }) => checkTable(config, diagnostics, context),
  prepare: ({ table, id, ref }, context) => {
    const slot = context.variable(ref);
    const rowId = context.text(id);
    return async (run) => {
      let row;
      try {
        row = await dataPort(run).get(table, rowId(run).trim(), run.signal);
      } catch (error) {
        throw dataFailure(run, error);
      }
      run.keep(slot, row);
    };
  },
});
