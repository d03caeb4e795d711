// `npm run db:migrate`: creates the database when missing and applies pending migrations; the
// same for the data database (DATA_DATABASE_URL, default `flowgate_data` beside DATABASE_URL).
// Prints one line per applied migration; any failure is one line on stderr and exit code 1.
import { createDataPool, setupDataDatabase } from '@flowgate/data-tables';
import { ConfigError, DependencyError, checkPostgres, dataConfigShape, dataDatabaseUrlOf, env, loadConfig } from '@flowgate/platform';
import { z } from 'zod';
import { ensureDatabase } from './ensure-database';
import { MigrationError, migrate } from './migrate';

async function main(): Promise<void> {
  const config = loadConfig(z.object({ DATABASE_URL: env.databaseUrl, DATA_DATABASE_URL: dataConfigShape.DATA_DATABASE_URL }));
  const databaseUrl = config.DATABASE_URL;
  await checkPostgres(databaseUrl);
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (await ensureDatabase(databaseUrl)) process.stdout.write(`created database ${name}\n`);
  const applied = await migrate(databaseUrl);
  if (applied.length === 0) process.stdout.write(`database ${name} is up to date\n`);
  const dataUrl = dataDatabaseUrlOf(config);
  const dataName = decodeURIComponent(new URL(dataUrl).pathname.slice(1));
  if (await ensureDatabase(dataUrl)) process.stdout.write(`created database ${dataName}\n`);
  const pool = createDataPool({ url: dataUrl, max: 1, applicationName: 'flowgate-migrate' });
  try {
    await setupDataDatabase(pool);
  } finally {
    await pool.end();
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DependencyError || error instanceof MigrationError;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`db:migrate: ${known ? message : `failed — ${message}`}\n`);
  process.exit(1);
});
