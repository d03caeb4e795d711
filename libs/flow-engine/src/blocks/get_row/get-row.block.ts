import { z } from 'zod';
import { textSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { defineTableBlock, tableField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    id: kit.template(textSource('Row id')),
    ref: refField(),
  });
type GetRowConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const getRowBlock = defineTableBlock<GetRowConfig>({
  type: 'get_row',
  label: 'Get Row',
  description: 'Reads one row of a table by its id: {result.REF} is the row, or null when there is none.',
  config,
  fields: null,
  prepare: ({ table, id }, context) => {
    const rowId = context.text(id);
    return (run, data) => data.get(table, rowId(run).trim(), run.signal);
  },
});
