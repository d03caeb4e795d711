import type { PublishedDataTable } from '@flowgate/contracts';
import { DataPortError, type DataPort } from '@flowgate/flow-engine';
import { DataError } from './data-error';
import type { FairDataPool } from './fair-data-pool';
import { RowStore } from './row-store';

/**
 * The port's answer to a storage refusal; a conversion problem cannot arise from a block. What
 * PostgreSQL said in its own words (an error with a SQLSTATE `code`) is not for the flow's
 * caller: the flow fails with a sentence of ours, the original kept as `cause` for the logs.
 */
function portError(error: unknown, table: string): unknown {
  if (error instanceof DataError) {
    // Not the flow's doing: the block fails with the message (a cancelled statement: the run's deadline wins).
    if (error.code === 'busy' || error.code === 'query_timeout') return new Error(error.message);
    return new DataPortError(error.code === 'conversion_failed' ? 'invalid_value' : error.code, error.message);
  }
  const code = (error as { code?: unknown })?.code;
  // 42P01: the table was deleted (with force) while this gateway still had it published.
  if (code === '42P01') return new DataPortError('unknown_table', `the project has no table ${table}`);
  if (typeof code === 'string' && !(error instanceof DataPortError)) return new Error('the table storage could not run the statement', { cause: error });
  return error;
}

/**
 * The table blocks' port of one project: its published tables by name, each with the SQL of its
 * storage built once (on first use; `pool` is asked for the pool then). A name the project has no table of is refused before any SQL is made, so
 * the only storage a flow can reach is its own project's (storage-names.ts).
 */
export function createDataPort(pool: () => FairDataPool, projectId: string, tables: readonly PublishedDataTable[]): DataPort {
  // Built on the first table block that runs: `pool` may open the pool only then.
  let stores: Map<string, RowStore> | null = null;
  const storeOf = (name: string): RowStore => {
    stores ??= new Map(tables.map((table) => [table.name, new RowStore(pool().pool, { projectId, tableId: table.id, columns: table.columns })]));
    const store = stores.get(name);
    if (!store) throw new DataPortError('unknown_table', `the project has no table ${name}`);
    return store;
  };
  // Every statement waits for the project's turn on the shared pool and ends with the run (signal).
  const call = async <T>(name: string, signal: AbortSignal, work: (store: RowStore) => Promise<T>): Promise<T> => {
    try {
      return await work(storeOf(name).on(pool().forTenant(projectId, signal)));
    } catch (error) {
      throw portError(error, name);
    }
  };
  return {
    query: (table, { filter, sort, limit }, signal) => call(table, signal, async (store) => (await store.query({ filter, sort, limit })).rows),
    get: (table, id, signal) => call(table, signal, (store) => store.get(id)),
    insert: (table, values, signal) => call(table, signal, (store) => store.insert(values)),
    update: (table, filter, values, signal) => call(table, signal, (store) => store.update(filter, values)),
    delete: (table, filter, signal) => call(table, signal, (store) => store.delete(filter)),
  };
}
