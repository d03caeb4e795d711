import { DependencyError } from '@flowgate/platform';
import { Client } from 'pg';

/** The tables this app reads; a database without them is missing its migrations. */
const TABLES = ['accounts', 'sessions', 'projects', 'integrations', 'endpoints', 'endpoint_versions', 'api_keys', 'request_logs', 'request_log_rollups'];

/** Start-up check: the database exists and is migrated, reported as one line with the fix. */
export async function checkDatabaseSchema(databaseUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ missing: string[] }>(
      `SELECT coalesce(array_agg(t), '{}') AS missing FROM unnest($1::text[]) AS t WHERE to_regclass(t) IS NULL`,
      [TABLES],
    );
    const missing = rows[0]?.missing ?? [];
    if (missing.length)
      throw new DependencyError(`database "${name}" is not migrated (missing ${missing.join(', ')}) — run \`npm run db:migrate\` (DATABASE_URL)`);
  } catch (error) {
    if (error instanceof DependencyError) throw error;
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new DependencyError(`cannot use database "${name}" (${reason}) — run \`npm run db:migrate\` or fix DATABASE_URL`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
