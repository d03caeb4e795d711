import { randomUUID } from 'node:crypto';
import type { DataColumn } from '@flowgate/contracts';
import { Client, type Pool } from 'pg';
import { createDataPool, inTransaction, setupDataDatabase, writeDataLimits } from './data-database';
import { RowStore, type StoredTable } from './row-store';
import { qualifiedTable } from './storage-names';
import { createTableStorage } from './table-ddl';

const COLUMNS: DataColumn[] = [
  { name: 'email', type: 'text', required: true, unique: true, indexed: false },
  { name: 'score', type: 'number', required: false, unique: false, indexed: true },
  { name: 'note', type: 'text', required: false, unique: false, indexed: false },
];

/** A database of its own on the test run's server (this library may not use @flowgate/db). */
async function throwawayDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  const name = `flowgate_data_rows_${process.pid}_${randomUUID().slice(0, 8)}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: Object.assign(new URL(server), { pathname: '/postgres' }).toString() });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE "${name}"`);
  return { url: Object.assign(new URL(server), { pathname: `/${name}` }).toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** The storage on a real PostgreSQL of its own: declared indexes are used, and names never come from users. */
describe('row store (real PostgreSQL)', () => {
  let database: { url: string; drop(): Promise<void> };
  let pool: Pool;
  let table: StoredTable;

  beforeAll(async () => {
    database = await throwawayDatabase();
    pool = createDataPool({ url: database.url, max: 2, applicationName: 'row-store-test' });
    await setupDataDatabase(pool);
    await writeDataLimits(pool, { maxRowsPerProject: 100_000, maxBytesPerProject: 100_000_000, maxBytesPerRow: 65_536 });
    table = { projectId: randomUUID(), tableId: randomUUID(), columns: COLUMNS };
    await inTransaction(pool, (client) => createTableStorage(client, table, COLUMNS));
    await pool.query(
      `INSERT INTO ${qualifiedTable(table)} (id, email, score, note) SELECT gen_random_uuid(), 'u' || n || '@x.test', n % 1000, 'n' FROM generate_series(1, 20000) n`,
    );
    await pool.query(`ANALYZE ${qualifiedTable(table)}`);
  }, 60_000);
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  async function plan(text: string, values: unknown[]): Promise<string> {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it('uses the declared index for a filter on an indexed column, and the unique index for a unique one', async () => {
    const spied: string[] = [];
    const spy = { query: (text: string, values: unknown[]) => (spied.push(text), pool.query(text, values)) } as unknown as Pool;
    const store = new RowStore(spy, table);
    const page = await store.query({ filter: [{ column: 'score', operator: 'eq', value: 7 }], limit: 10 });
    expect(page.rows).toHaveLength(10);
    expect(await plan(spied[0]!, [7, 11])).toMatch(/Index Scan|Bitmap Index Scan/);
    await store.query({ filter: [{ column: 'email', operator: 'eq', value: 'u5@x.test' }], limit: 1 });
    expect(await plan(spied[1]!, ['u5@x.test', 2])).toMatch(/Index Scan using "?u_/);
    // A column without an index is read by a scan (what the index saves).
    await store.query({ filter: [{ column: 'note', operator: 'eq', value: 'x' }], limit: 1 });
    expect(await plan(spied[2]!, ['x', 2])).toMatch(/Seq Scan/);
  });

  it('counts rows in the usage counters as rows come and go', async () => {
    const store = new RowStore(pool, table);
    const count = async () => Number((await pool.query('SELECT sum(rows) AS n FROM flowgate.usage WHERE table_id = $1', [table.tableId])).rows[0].n);
    expect(await count()).toBe(20000);
    await store.insert({ email: 'new@x.test' });
    expect(await count()).toBe(20001);
    await store.delete([{ column: 'score', operator: 'eq', value: 3 }]);
    expect(await count()).toBe(20001 - 20);
  });

  it('names storage by ids alone: a user-given name never reaches the SQL as an identifier', async () => {
    const store = new RowStore(pool, table);
    await expect(store.query({ filter: [{ column: 'email" OR 1=1 --', operator: 'eq', value: 'x' }], limit: 1 })).rejects.toMatchObject({ code: 'unknown_column' });
    await expect(store.query({ filter: [], sort: { column: 'score; DROP TABLE x', direction: 'asc' }, limit: 1 })).rejects.toMatchObject({ code: 'unknown_column' });
    expect(() => qualifiedTable({ projectId: 'p"; DROP SCHEMA x; --', tableId: table.tableId })).toThrow(/not a UUID/);
    const crafted = await store.query({ filter: [{ column: 'email', operator: 'eq', value: "' OR '1'='1" }], limit: 5 });
    expect(crafted.rows).toEqual([]);
  });
});
