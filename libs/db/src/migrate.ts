import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { MigrationError as UmzugMigrationError, Umzug, type UmzugStorage } from 'umzug';

/**
 * Applies prisma/migrations/<name>/migration.sql in name order and records each one in
 * Prisma's `_prisma_migrations` table, so `prisma migrate status`/`deploy` agree with us.
 * Every migration runs in its own transaction together with its record, and the whole run
 * holds a PostgreSQL advisory lock, so concurrent runners (parallel test processes, several
 * replicas starting) apply each migration exactly once.
 */

export const MIGRATIONS_DIR = resolve(__dirname, '..', '..', '..', 'prisma', 'migrations');

/** Every runner of every Flowgate version takes the same advisory lock. */
const LOCK_SQL = "SELECT pg_advisory_lock(hashtextextended('flowgate:migrate', 0))";
const UNLOCK_SQL = "SELECT pg_advisory_unlock(hashtextextended('flowgate:migrate', 0))";

export interface MigrateOptions {
  /** No line per applied migration. */
  quiet?: boolean;
  /** Where the migration folders are; defaults to the repository's prisma/migrations. */
  migrationsDir?: string;
  /** Where the lines go; defaults to stdout. */
  log?: (line: string) => void;
}

/** A refusal or failure of the runner, worded as one line that says what to do. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

export interface MigrationFile {
  name: string;
  path: string;
  sql: string;
  /** What Prisma stores in `_prisma_migrations.checksum`: sha256 hex of the file. */
  checksum: string;
}

/** The migrations on disk, in the order Prisma applies them (folder names sort by timestamp). */
export function readMigrations(dir: string = MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(dir)) throw new MigrationError(`no migrations folder at ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const path = join(dir, name, 'migration.sql');
      const content = readFileSync(path);
      return { name, path, sql: content.toString('utf8'), checksum: createHash('sha256').update(content).digest('hex') };
    });
}

// Exactly the table `prisma migrate` creates.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

interface Context {
  client: Client;
}

/** Records in `_prisma_migrations`; the record is written in the migration's own transaction. */
class PrismaMigrationsStorage implements UmzugStorage<Context> {
  constructor(private readonly checksums: Map<string, string>) {}

  async executed({ context }: { context: Context }): Promise<string[]> {
    const { rows } = await context.client.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
        WHERE rolled_back_at IS NULL ORDER BY started_at, migration_name`,
    );
    for (const row of rows) {
      if (row.finished_at === null) {
        throw new MigrationError(
          `migration ${row.migration_name} is recorded as started but never finished in _prisma_migrations — ` +
            'check the database by hand, then delete that row (or mark it rolled back) and run the migrations again',
        );
      }
      const expected = this.checksums.get(row.migration_name);
      if (expected !== undefined && expected !== row.checksum) {
        throw new MigrationError(
          `migration ${row.migration_name} was modified after it was applied (checksum ${row.checksum.slice(0, 12)}… ` +
            `in the database, ${expected.slice(0, 12)}… on disk) — restore the original migration.sql and put the change in a new migration`,
        );
      }
    }
    return rows.map((row) => row.migration_name);
  }

  /** Called by umzug right after `up` succeeded, inside the transaction `up` opened. */
  async logMigration({ name, context }: { name: string; context: Context }): Promise<void> {
    try {
      await context.client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
        [randomUUID(), this.checksums.get(name), name],
      );
      await context.client.query('COMMIT');
    } catch (error) {
      await context.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  async unlogMigration(): Promise<void> {
    throw new MigrationError('Flowgate migrations are forward-only (like Prisma): add a new migration instead of reverting one');
  }
}

/** One line for a failed migration: PostgreSQL's message and, when it says where, the line. */
function describeFailure(error: unknown, migrations: MigrationFile[]): string {
  const migration = error instanceof UmzugMigrationError ? migrations.find((m) => m.name === error.migration.name) : undefined;
  const cause = (error instanceof UmzugMigrationError ? error.cause : error) as { message?: string; position?: string };
  const message = cause?.message ?? String(cause);
  if (!migration) return `migrations failed: ${message}`;
  const position = Number(cause.position);
  const line = position > 0 ? ` (line ${migration.sql.slice(0, position).split('\n').length})` : '';
  return `migration ${migration.name} failed and was rolled back: ${message}${line}`;
}

/**
 * Applies every pending migration to `databaseUrl` (which must exist) and returns the names
 * it applied, in order; an up-to-date database gives `[]`.
 */
export async function migrate(databaseUrl: string, opts: MigrateOptions = {}): Promise<string[]> {
  const migrations = readMigrations(opts.migrationsDir);
  const log = opts.quiet ? () => undefined : (opts.log ?? ((line: string) => process.stdout.write(`${line}\n`)));
  const client = new Client({ connectionString: databaseUrl, application_name: 'flowgate-migrate' });
  await client.connect();
  try {
    // Session lock: held across all migrations; a second runner waits here, then finds nothing pending.
    await client.query(LOCK_SQL);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const umzug = new Umzug<Context>({
        context: { client },
        storage: new PrismaMigrationsStorage(new Map(migrations.map((m) => [m.name, m.checksum]))),
        logger: undefined, // our own line per applied migration instead of umzug's event objects
        migrations: migrations.map((m) => ({
          name: m.name,
          path: m.path,
          up: async ({ context }) => {
            await context.client.query('BEGIN');
            try {
              // Simple-query protocol: the file may hold many statements and dollar-quoted bodies.
              await context.client.query(m.sql);
            } catch (error) {
              await context.client.query('ROLLBACK').catch(() => undefined);
              throw error;
            }
          },
        })),
      });
      umzug.on('migrated', ({ name }) => log(`applied migration ${name}`));
      try {
        const applied = await umzug.up();
        return applied.map((m) => m.name);
      } catch (error) {
        if (error instanceof MigrationError) throw error;
        throw new MigrationError(describeFailure(error, migrations));
      }
    } finally {
      await client.query(UNLOCK_SQL).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}
