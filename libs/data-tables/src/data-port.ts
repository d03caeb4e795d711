import type { PublishedDataTable } from '@flowgate/contracts';
import { DataPortError, type DataPort } from '@flowgate/flow-engine';
import type { Pool } from 'pg';
import { DataError } from './data-error';
import { RowStore } from './row-store';

/** The port's answer to a storage refusal; a conversion problem cannot arise from a block. */
function portError(error: unknown): unknown {
  if (!(error instanceof DataError)) return error;
  return new DataPortError(error.code === 'conversion_failed' ? 'invalid_value' : error.code, error.message);
}

/**
 * The table blocks' port of one project: its published tables by name, each with the SQL of its
 * storage built once (on first use; `pool` is asked for the pool then). A name the project has no table of is refused before any SQL is made, so
 * the only storage a flow can reach is its own project's (storage-names.ts).
 */
export function createDataPort(pool: () => Pool, projectId: string, tables: readonly PublishedDataTable[]): DataPort {
  // Built on the first table block that runs: `pool` may open the pool only then.
  let stores: Map<string, RowStore> | null = null;
  const storeOf = (name: string): RowStore => {
    stores ??= new Map(tables.map((table) => [table.name, new RowStore(pool(), { projectId, tableId: table.id, columns: table.columns })]));
    const store = stores.get(name);
    if (!store) throw new DataPortError('unknown_table', `the project has no table ${name}`);
    return store;
  };
  const call = async <T>(name: string, work: (store: RowStore) => Promise<T>): Promise<T> => {
    try {
      return await work(storeOf(name));
    } catch (error) {
      throw portError(error);
    }
  };
  return {
    query: (table, { filter, sort, limit }) => call(table, async (store) => (await store.query({ filter, sort, limit })).rows),
    get: (table, id) => call(table, (store) => store.get(id)),
    insert: (table, values) => call(table, (store) => store.insert(values)),
    update: (table, filter, values) => call(table, (store) => store.update(filter, values)),
    delete: (table, filter) => call(table, (store) => store.delete(filter)),
  };
}
