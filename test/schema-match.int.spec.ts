// The migrated database must be exactly what prisma/schema.prisma describes. The expected
// shape comes from Prisma's own parser of the schema file, so a schema change without a
// matching migration (or a migration that drifts from the schema) fails here.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { migrate } from '../libs/db/src/migrate';
import { expectedShape } from '../libs/db/src/schema-shape/expected-from-prisma';
import { introspectShape } from '../libs/db/src/schema-shape/introspect';
import type { SchemaShape } from '../libs/db/src/schema-shape/shape';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@flowgate/testing';

const SCHEMA = resolve(__dirname, '..', 'prisma', 'schema.prisma');
const expected = expectedShape(SCHEMA);
const tables = Object.keys(expected.tables).sort();

describe('migrations match prisma/schema.prisma', () => {
  let database: ThrowawayDatabase;
  let client: Client;
  let actual: SchemaShape;

  beforeAll(async () => {
    database = await createThrowawayDatabase('flowgate_schema');
    await migrate(database.url, { quiet: true });
    client = new Client({ connectionString: database.url });
    await client.connect();
    actual = await introspectShape(client);
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('has the enums of the schema, labels in order', () => {
    expect(actual.enums).toEqual(expected.enums);
  });

  it('has exactly the tables of the schema', () => {
    expect(Object.keys(actual.tables).sort()).toEqual(tables);
  });

  it.each(tables)('table %s: columns, types, nullability and defaults', (table) => {
    expect(actual.tables[table]?.columns).toEqual(expected.tables[table].columns);
  });

  it.each(tables)('table %s: primary key, unique and other indexes (names, column order, DESC, partial predicate)', (table) => {
    expect(actual.tables[table]?.indexes).toEqual(expected.tables[table].indexes);
  });

  it.each(tables)('table %s: foreign keys and their actions', (table) => {
    expect(actual.tables[table]?.foreignKeys).toEqual(expected.tables[table].foreignKeys);
  });

  it('partitions request_logs by range of time, with a default partition', async () => {
    const { rows } = await client.query<{ key: string; default_partition: string | null }>(`
      SELECT pg_get_partkeydef('request_logs'::regclass) AS key,
             (SELECT c.relname FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partdefid
               WHERE p.partrelid = 'request_logs'::regclass) AS default_partition`);
    expect(rows[0]).toEqual({ key: 'RANGE ("time")', default_partition: 'request_logs_default' });
  });

  describe('the comparison itself', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'flowgate-schema-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const variant = (edit: (schema: string) => string) => {
      const file = join(dir, `schema-${Math.random().toString(36).slice(2)}.prisma`);
      copyFileSync(SCHEMA, file);
      writeFileSync(file, edit(readFileSync(file, 'utf8')));
      return expectedShape(file);
    };

    it('notices a field added to the schema without a migration', () => {
      const changed = variant((s) => s.replace('model Account {', 'model Account {\n  nickname String? @db.VarChar(40)'));
      expect(changed.tables.accounts.columns.nickname).toEqual({ type: 'character varying(40)', nullable: true, default: null });
      expect(actual.tables.accounts.columns).not.toEqual(changed.tables.accounts.columns);
    });

    it('notices an index whose sort order changed', () => {
      const changed = variant((s) => s.replace('@@index([projectId, path, time, id])', '@@index([projectId, path, time, id(sort: Desc)])'));
      expect(actual.tables.request_logs.indexes).not.toEqual(changed.tables.request_logs.indexes);
    });

    it('reads the predicate of a partial index from the schema and notices when it changes or goes', () => {
      // Prisma's DMMF has no `where:`; the comparison reads it from the schema text.
      const index = 'request_logs_project_id_status_time_id_idx';
      expect(expected.tables.request_logs.indexes[index].where).toBe('(status <> 200)');
      const changed = variant((s) => s.replace('where: raw("(status <> 200)")', 'where: raw("(status >= 400)")'));
      expect(changed.tables.request_logs.indexes[index].where).toBe('(status >= 400)');
      expect(actual.tables.request_logs.indexes).not.toEqual(changed.tables.request_logs.indexes);
      const whole = variant((s) => s.replace(', where: raw("(status <> 200)")', ''));
      expect(whole.tables.request_logs.indexes[index].where).toBeUndefined();
      expect(actual.tables.request_logs.indexes).not.toEqual(whole.tables.request_logs.indexes);
    });

    it('notices a changed referential action', () => {
      const changed = variant((s) => s.replace('@relation(fields: [accountId], references: [id], onDelete: Cascade)\n\n  @@index([accountId])\n  @@map("sessions")', '@relation(fields: [accountId], references: [id], onDelete: Restrict)\n\n  @@index([accountId])\n  @@map("sessions")'));
      expect(changed.tables.sessions.foreignKeys.sessions_account_id_fkey.onDelete).toBe('Restrict');
      expect(actual.tables.sessions.foreignKeys).not.toEqual(changed.tables.sessions.foreignKeys);
    });
  });
});
