import { Client } from 'pg';

/**
 * Creates the database named in `databaseUrl` when it does not exist yet, connecting to the
 * server's `postgres` maintenance database to do so. Returns whether it created it.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) return false;
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString(), application_name: 'flowgate-migrate' });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount) return false;
    try {
      await admin.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '42P04') return false; // created meanwhile by another runner
      throw error;
    }
  } finally {
    await admin.end();
  }
}
