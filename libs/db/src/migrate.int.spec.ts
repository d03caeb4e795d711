import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS_DIR, MigrationError, migrate, readMigrations } from './migrate';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@flowgate/testing';

const migrations = readMigrations();
const names = migrations.map((m) => m.name);

async function withClient<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

interface Row {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
}
const records = (url: string) =>
  withClient(url, async (c) => (await c.query<Row>('SELECT * FROM "_prisma_migrations" ORDER BY migration_name')).rows);

const tableExists = (url: string, table: string) =>
  withClient(url, async (c) => (await c.query('SELECT to_regclass($1) AS t', [table])).rows[0].t !== null);

describe('migrate', () => {
  const databases: ThrowawayDatabase[] = [];
  const dirs: string[] = [];
  const freshDatabase = async () => {
    const database = await createThrowawayDatabase('flowgate_migrate');
    databases.push(database);
    return database.url;
  };
  /** A copy of the repository's migrations that a test may change. */
  const migrationsCopy = () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowgate-migrations-'));
    dirs.push(dir);
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    return dir;
  };

  afterAll(async () => {
    for (const database of databases) await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('applies every migration once, in order, recorded the way Prisma records them', async () => {
    const url = await freshDatabase();
    const lines: string[] = [];
    expect(await migrate(url, { log: (line) => lines.push(line) })).toEqual(names);
    expect(lines).toEqual(names.map((name) => `applied migration ${name}`));

    const rows = await records(url);
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const [i, row] of rows.entries()) {
      expect(row.checksum).toBe(migrations[i].checksum);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it('is idempotent: a second run applies nothing and prints nothing', async () => {
    const url = await freshDatabase();
    await migrate(url, { quiet: true });
    const lines: string[] = [];
    expect(await migrate(url, { log: (line) => lines.push(line) })).toEqual([]);
    expect(lines).toEqual([]);
    expect((await records(url)).length).toBe(names.length);
  });

  it('is safe to run concurrently: each migration is applied by exactly one runner', async () => {
    const url = await freshDatabase();
    const results = await Promise.all([1, 2, 3, 4].map(() => migrate(url, { quiet: true })));
    expect(results.flat().sort()).toEqual([...names].sort());
    expect(results.filter((applied) => applied.length > 0)).toHaveLength(1);
    expect((await records(url)).map((r) => r.migration_name)).toEqual(names);
  });

  it('refuses to run when an applied migration was changed afterwards, and changes nothing', async () => {
    const url = await freshDatabase();
    const dir = migrationsCopy();
    await migrate(url, { quiet: true, migrationsDir: dir });
    appendFileSync(join(dir, names[0], 'migration.sql'), '\n-- edited after it was applied\n');
    mkdirSync(join(dir, '99990101000000_later'));
    writeFileSync(join(dir, '99990101000000_later', 'migration.sql'), 'CREATE TABLE "later" ("id" INTEGER);\n');

    const run = migrate(url, { quiet: true, migrationsDir: dir });
    await expect(run).rejects.toThrow(MigrationError);
    await expect(run).rejects.toThrow(new RegExp(`^migration ${names[0]} was modified after it was applied .* restore the original`));
    expect(await tableExists(url, 'later')).toBe(false);
    expect((await records(url)).length).toBe(names.length);
  });

  it('rolls a failing migration back entirely, records nothing, and applies it once fixed', async () => {
    const url = await freshDatabase();
    const dir = migrationsCopy();
    const file = join(dir, '99990101000000_broken', 'migration.sql');
    mkdirSync(join(dir, '99990101000000_broken'));
    writeFileSync(file, 'CREATE TABLE "half_done" ("id" INTEGER);\n\nSELECT 1 / 0;\n');

    await expect(migrate(url, { quiet: true, migrationsDir: dir })).rejects.toThrow(
      /^migration 99990101000000_broken failed and was rolled back: division by zero$/,
    );
    expect(await tableExists(url, 'half_done')).toBe(false);
    // The migrations before it were committed one by one and stay applied.
    expect((await records(url)).map((r) => r.migration_name)).toEqual(names);

    writeFileSync(file, 'CREATE TABLE "half_done" ("id" INTEGER);\n');
    expect(await migrate(url, { quiet: true, migrationsDir: dir })).toEqual(['99990101000000_broken']);
    expect(await tableExists(url, 'half_done')).toBe(true);
  });

  it('names the line of a syntax error', async () => {
    const url = await freshDatabase();
    const dir = migrationsCopy();
    mkdirSync(join(dir, '99990101000000_typo'));
    writeFileSync(join(dir, '99990101000000_typo', 'migration.sql'), '-- a comment\nCREATE TABLE "ok" ("id" INTEGER);\nCREATE TABEL "typo" ("id" INTEGER);\n');
    await expect(migrate(url, { quiet: true, migrationsDir: dir })).rejects.toThrow(
      /^migration 99990101000000_typo failed and was rolled back: syntax error at or near "TABEL" \(line 3\)$/,
    );
  });

  it('ignores records that Prisma marked as rolled back and applies the migration again', async () => {
    const url = await freshDatabase();
    const dir = migrationsCopy();
    mkdirSync(join(dir, '99990101000000_retry'));
    writeFileSync(join(dir, '99990101000000_retry', 'migration.sql'), 'CREATE TABLE "retried" ("id" INTEGER);\n');
    await migrate(url, { quiet: true });
    await withClient(url, (c) =>
      c.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
               VALUES (gen_random_uuid()::text, 'x', '99990101000000_retry', 'failed', now(), now(), 0)`),
    );
    expect(await migrate(url, { quiet: true, migrationsDir: dir })).toEqual(['99990101000000_retry']);
    expect(await tableExists(url, 'retried')).toBe(true);
  });

  it('refuses a migration that Prisma left started but unfinished', async () => {
    const url = await freshDatabase();
    await migrate(url, { quiet: true });
    await withClient(url, (c) =>
      c.query(`UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = $1`, [names[0]]),
    );
    await expect(migrate(url, { quiet: true })).rejects.toThrow(/started but never finished/);
  });
});
