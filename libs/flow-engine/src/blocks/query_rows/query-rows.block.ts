import { z } from 'zod';
import type { ConfigKit, KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { defineTableBlock, filterField, limitField, prepareFilter, sortField, tableField } from '../common/table-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    table: tableField(),
    filter: filterField(kit).default([]),
    sort: sortField(),
    limit: limitField(),
    ref: refField(),
  });
type QueryRowsConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const queryRowsBlock = defineTableBlock<QueryRowsConfig>({
  type: 'query_rows',
  label: 'Query Rows',
  description: 'Reads the rows of a table that match every condition: {result.REF.rows} and {result.REF.count}.',
  config,
  fields: ['rows', 'count'],
  prepare: ({ table, filter, sort, limit }, context) => {
    const conditions = prepareFilter(filter, context);
    return async (run, data) => {
      const rows = await data.query(table, { filter: conditions(run), sort, limit }, run.signal);
      return { rows, count: rows.length };
    };
  },
});
