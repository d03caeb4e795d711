/**
 * The data-pool part of the noisy-neighbour drill: the noisy project's `query_rows` with 20
 * `contains` filters on 300,000 rows (the issue's: each a scan of the table), 16 at once, fill
 * its share of the gateway's data pool, while the quiet project's 1-row query is probed one
 * request at a time. The tables live in a data database of the drill's own (created, set up
 * and dropped here), which the gateway is started on (DATA_DATABASE_URL).
 */
import { randomUUID } from 'node:crypto';
import type { DataColumn, PublishedDataTable } from '@flowgate/contracts';
import { createDataPool, createTableStorage, inTransaction, qualifiedTable, setupDataDatabase, writeDataLimits } from '@flowgate/data-tables';
import { createThrowawayDatabase, publishedRoute, respond, type ThrowawayDatabase } from '@flowgate/testing';
import type { PublishedRoute } from '@flowgate/contracts';

const ROWS = 300_000;
const FILTERS = 20;
const COLUMNS: DataColumn[] = ['a', 'b', 'c', 'd'].map((name) => ({ name, type: 'text', required: false, unique: false, indexed: false }));

export interface DataPoolDrill {
  /** The gateway's environment: its data database. */
  env: Record<string, string>;
  noisy: { tables: PublishedDataTable[]; routes: PublishedRoute[] };
  quiet: { tables: PublishedDataTable[]; routes: PublishedRoute[] };
  /** The noisy lane's path, the quiet probe's path. */
  slowPath: string;
  probePath: string;
  drop(): Promise<void>;
}

/** Creates the data database, the noisy project's 300,000-row table and the quiet project's 1-row table, and their routes. */
export async function prepareDataPoolDrill(serverUrl: string, noisyProjectId: string, quietProjectId: string): Promise<DataPoolDrill> {
  const database: ThrowawayDatabase = await createThrowawayDatabase('flowgate_noisy_data', serverUrl);
  const pool = createDataPool({ url: database.url, max: 2, applicationName: 'flowgate-noisy-drill' });
  try {
    await setupDataDatabase(pool);
    await writeDataLimits(pool, { maxRowsPerProject: 1_000_000, maxBytesPerProject: 1024 ** 3, maxBytesPerRow: 65_536 });
    const big = { projectId: noisyProjectId, tableId: randomUUID(), columns: COLUMNS };
    const small = { projectId: quietProjectId, tableId: randomUUID(), columns: COLUMNS };
    for (const table of [big, small]) await inTransaction(pool, (client) => createTableStorage(client, table, COLUMNS));
    await pool.query(
      `INSERT INTO ${qualifiedTable(big)} (id, a, b, c, d) SELECT gen_random_uuid(), md5(n::text), md5((n + 1)::text), md5((n + 2)::text), md5((n + 3)::text) FROM generate_series(1, ${ROWS}) n`,
    );
    await pool.query(`INSERT INTO ${qualifiedTable(small)} (id, a) VALUES (gen_random_uuid(), 'hello')`);
    await pool.query(`ANALYZE ${qualifiedTable(big)}`);
    const filter = Array.from({ length: FILTERS }, (_, i) => ({ column: COLUMNS[i % COLUMNS.length]!.name, operator: 'contains', value: `zz${i}` }));
    return {
      env: { DATA_DATABASE_URL: database.url },
      noisy: {
        tables: [{ id: big.tableId, name: 'big', columns: COLUMNS }],
        routes: [publishedRoute({ path: '/slow', blocks: [{ type: 'query_rows', config: { table: 'big', filter, limit: 10, ref: 'found' } }, respond({ n: '{result.found.count}' })] })],
      },
      quiet: {
        tables: [{ id: small.tableId, name: 'small', columns: COLUMNS }],
        routes: [publishedRoute({ path: '/one', blocks: [{ type: 'query_rows', config: { table: 'small', limit: 1, ref: 'found' } }, respond({ n: '{result.found.count}' })] })],
      },
      slowPath: '/slow',
      probePath: '/one',
      drop: () => database.drop(),
    };
  } finally {
    await pool.end();
  }
}
