// Request-log events shaped exactly as a gateway produces them, and the rows log-ingest stores
// from them: for the log-ingest integration tests, the fault drills and the benchmark.
import { randomUUID } from 'node:crypto';
import type { RequestLogEvent } from '@flowgate/contracts';
import type { Pool } from 'pg';

export const uniqueName = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;

export function makeEvent(overrides: Partial<RequestLogEvent> = {}): RequestLogEvent {
  return {
    v: 1,
    environment: 'live',
    trigger: 'http',
    id: randomUUID(),
    project_id: randomUUID(),
    endpoint_id: randomUUID(),
    path: '/orders',
    method: 'GET',
    status: 200,
    code: null,
    duration_ms: 3.5,
    key_id: null,
    query: '',
    message: null,
    error_node_id: null,
    time: new Date().toISOString(),
    details: null,
    ...overrides,
  };
}

/** Stored rows of a project, and how many distinct event ids they hold. */
export async function countStored(pool: Pool, projectId: string): Promise<{ rows: number; distinct: number }> {
  const { rows } = await pool.query<{ rows: string; distinct: string }>(
    'SELECT count(*) AS rows, count(DISTINCT id) AS distinct FROM request_logs WHERE project_id = $1',
    [projectId],
  );
  return { rows: Number(rows[0].rows), distinct: Number(rows[0].distinct) };
}

/** An account with one project and `keys` API keys, written as the control plane would. */
export async function createProjectWithKeys(pool: Pool, keys: number): Promise<{ accountId: string; projectId: string; keyIds: string[] }> {
  const accountId = randomUUID();
  const projectId = randomUUID();
  const keyIds = Array.from({ length: keys }, () => randomUUID());
  await pool.query('INSERT INTO accounts (id, email, password_hash, updated_at) VALUES ($1, $2, $3, now())', [
    accountId,
    `${accountId}@log-ingest.test`,
    'not-a-real-hash',
  ]);
  await pool.query('INSERT INTO projects (id, account_id, name, subdomain, updated_at) VALUES ($1, $2, $3, $4, now())', [
    projectId,
    accountId,
    'log-ingest test',
    `li-${projectId.slice(0, 8)}`,
  ]);
  for (const keyId of keyIds) {
    await pool.query(
      'INSERT INTO api_keys (id, project_id, name, key_hash, display_prefix) VALUES ($1, $2, $3, $4, $5)',
      [keyId, projectId, 'test key', keyId.replaceAll('-', '').padEnd(64, '0'), 'fg_test'],
    );
  }
  return { accountId, projectId, keyIds };
}

/** Removes what createProjectWithKeys wrote (keys and project cascade) and the project's log rows. */
export async function deleteProject(pool: Pool, ids: { accountId: string; projectId: string }): Promise<void> {
  await pool.query('DELETE FROM request_logs WHERE project_id = $1', [ids.projectId]);
  await pool.query('DELETE FROM accounts WHERE id = $1', [ids.accountId]);
}
