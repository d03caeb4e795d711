import { z } from 'zod';
import { defineBlock, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { checkTable, dataFailure, dataPort, filterField, limitField, prepareFilter, sortField, tableField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    filter: filterField(kit).default([]),
    sort: sortField(),
    limit: limitField(),
    ref: refField(),
  });
type QueryRowsConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const queryRowsBlock = defineBlock<QueryRowsConfig>({
  type: 'query_rows',
  label: 'Query Rows',
  category: 'tables',
  description: 'Reads the rows of a table that match every condition: {result.REF.rows} and {result.REF.count}.',
  config,
  flow: 'next',
  async: true,
  outputs: ({ ref }) => [{ name: ref, fields: ['rows', 'count'], readableByName: false }],
  check: (config, diagnostics, { context }) => checkTable(config, diagnostics, context),
  prepare: ({ table, filter, sort, limit, ref }, context) => {
    const slot = context.variable(ref);
    const conditions = prepareFilter(filter, context);
    return async (run) => {
      let rows;
      try {
        rows = await dataPort(run).query(table, { filter: conditions(run), sort, limit }, run.signal);
      } catch (error) {
        throw dataFailure(run, error);
      }
      run.keep(slot, { rows, count: rows.length });
    };
  },
});
