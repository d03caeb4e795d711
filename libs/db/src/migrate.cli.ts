// `npm run db:migrate`: creates the database when missing and applies pending migrations.
// Prints one line per applied migration; any failure is one line on stderr and exit code 1.
import { ConfigError, DependencyError, checkPostgres, env, loadConfig } from '@flowgate/platform';
import { z } from 'zod';
import { ensureDatabase } from './ensure-database';
import { MigrationError, migrate } from './migrate';

async function main(): Promise<void> {
  const { DATABASE_URL: databaseUrl } = loadConfig(z.object({ DATABASE_URL: env.databaseUrl }));
  await checkPostgres(databaseUrl);
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (await ensureDatabase(databaseUrl)) process.stdout.write(`created database ${name}\n`);
  const applied = await migrate(databaseUrl);
  if (applied.length === 0) process.stdout.write(`database ${name} is up to date\n`);
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DependencyError || error instanceof MigrationError;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`db:migrate: ${known ? message : `failed — ${message}`}\n`);
  process.exit(1);
});
