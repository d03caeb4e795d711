// `node dist/libs/db/src/migrate-wait.cli.js`: waits until the database has every migration this
// build carries, then exits 0 — the init container that holds an app's pods back until the
// migration Job of their release has run (deploy/k8s). It never applies anything itself.
// MIGRATE_WAIT_TIMEOUT_SECONDS (default 600) bounds the wait: then exit 1, one line naming what
// is still missing. A database with migrations this build does not know (a newer release) is fine.
import { ConfigError, DependencyError, checkPostgres, env, loadConfig } from '@flowgate/platform';
import { Client } from 'pg';
import { z } from 'zod';
import { MigrationError, readMigrations } from './migrate';
import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 2000;

/** The names of the migrations `databaseUrl` has finished; none when the table does not exist yet. */
async function appliedMigrations(databaseUrl: string): Promise<Set<string>> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'flowgate-migrate-wait' });
  await client.connect();
  try {
    const exists = await client.query<{ found: boolean }>("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS found");
    if (!exists.rows[0]?.found) return new Set();
    const { rows } = await client.query<{ name: string }>('SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
    return new Set(rows.map((row) => row.name));
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const config = loadConfig(z.object({ DATABASE_URL: env.databaseUrl, MIGRATE_WAIT_TIMEOUT_SECONDS: env.positiveInt(600) }));
  const wanted = readMigrations().map((migration) => migration.name);
  const deadline = Date.now() + config.MIGRATE_WAIT_TIMEOUT_SECONDS * 1000;
  let said = '';
  for (;;) {
    let missing: string[] = wanted;
    try {
      await checkPostgres(config.DATABASE_URL);
      const applied = await appliedMigrations(config.DATABASE_URL);
      missing = wanted.filter((name) => !applied.has(name));
    } catch (error) {
      // The database may not exist before the migration Job has created it.
      if (!(error instanceof DependencyError) && !/does not exist/.test(String((error as Error).message))) throw error;
    }
    if (missing.length === 0) {
      process.stdout.write(`database has all ${wanted.length} migrations of this release\n`);
      return;
    }
    if (Date.now() > deadline) {
      throw new MigrationError(`${missing.length} migrations still missing after ${config.MIGRATE_WAIT_TIMEOUT_SECONDS} s (first: ${missing[0]}) — has the migration job of this release run?`);
    }
    const line = `waiting for ${missing.length} migrations (first: ${missing[0]})`;
    if (line !== said) process.stdout.write(`${line}\n`);
    said = line;
    await sleep(POLL_MS);
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DependencyError || error instanceof MigrationError;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`db:migrate-wait: ${known ? message : `failed — ${message}`}\n`);
  process.exit(1);
});
