import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ThrowawayDatabase {
  name: string;
  url: string;
  /**
   * Drops the database, closing whatever connections are still open on it — after up to 2 s
   * for those already closing to go (`pool.end()` resolves before its backends have exited:
   * terminated by the drop, a pool without an error listener throws an unhandled error).
   */
  drop(): Promise<void>;
}

/** How long `drop()` waits for connections that are closing before it terminates them. */
const CLOSING_GRACE_MS = 2000;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer<T>(serverUrl: string, run: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Creates an empty database with a unique name on the server of `serverUrl` (by default the
 * test run's DATABASE_URL), for tests that need a database of their own.
 */
export async function createThrowawayDatabase(
  prefix = 'flowgate_tmp',
  serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (!/^[a-z0-9_]{1,63}$/.test(name)) throw new Error(`createThrowawayDatabase: unusable name ${name}`);
  await onServer(serverUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  return {
    name,
    url: withDatabase(serverUrl, name),
    drop: () =>
      onServer(serverUrl, async (admin) => {
        for (let waited = 0; waited < CLOSING_GRACE_MS; waited += 20) {
          const { rows } = await admin.query<{ open: number }>('SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1', [name]);
          if (rows[0]!.open === 0) break;
          await sleep(20);
        }
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }),
  };
}
