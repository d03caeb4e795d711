import { randomBytes } from 'node:crypto';
import { apiKeyRecordKey } from '@flowgate/contracts';
import { sha256Hex } from '@flowgate/platform';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';

/** The bench's account on the stack (made by the first run, signed in to by the next). */
const ACCOUNT = { email: 'stack-bench@flowgate.invalid', password: 'stack bench: tangerine lighthouse 42 orbit' };

/** The flow of bench/gateway.bench.ts, as the Workshop saves it: set_variable → manipulate_text → respond. */
const FLOW = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'n1', type: 'set_variable', position: { x: 240, y: 0 }, config: { name: 'word', value: 'hello {params.name}' } },
    { id: 'n2', type: 'manipulate_text', position: { x: 480, y: 0 }, config: { input: '{local.word}', operation: 'uppercase', ref: 'loud' } },
    { id: 'n3', type: 'respond', position: { x: 720, y: 0 }, config: { status: 200, body: { result: '{result.loud}' } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'n2' },
    { id: 'e3', source: 'n2', target: 'n3' },
  ],
};

export interface BenchProject {
  id: string;
  subdomain: string;
  /** A user key of the project, able to call /shout-keyed. */
  key: string;
  keyId: string;
  /** Deletes the project through the API and its log rows and rollups from the database. */
  remove(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
}

async function call(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function expectStatus<T>(what: string, answer: Promise<Answer>, status: number): Promise<T> {
  const { status: got, body } = await answer;
  if (got !== status) throw new Error(`${what}: control plane answered ${got} ${JSON.stringify(body)}, expected ${status}`);
  return body as T;
}

/**
 * A session of the bench's account: signed in, or signed up on the first run. Sign-ups are
 * limited per address (SIGNUP_PER_ADDRESS_PER_HOUR, 20), and a sign-up with an existing email
 * counts as one: a bench that signed up every run was refused after 20 runs in an hour.
 */
async function signIn(api: string): Promise<string> {
  const login = await call(api, '/auth/login', { method: 'POST', body: ACCOUNT });
  if (login.status === 200) return (login.body as { token: string }).token;
  if (login.status !== 401) throw new Error(`sign-in: control plane answered ${login.status} ${JSON.stringify(login.body)}, expected 200 or 401`);
  return (await expectStatus<{ token: string }>('sign-up', call(api, '/auth/signup', { method: 'POST', body: ACCOUNT }), 201)).token;
}

/**
 * A project made the way a user makes one, through the control plane's API: two endpoints with
 * the bench flow (GET /shout public, GET /shout-keyed behind a user key), deployed, and a user
 * key. The API caps a key at 100,000 requests a minute, which the run exceeds; the key's limit
 * is raised to `keyLimitPerMin` where the gateway reads it (Redis) and in PostgreSQL, so that no
 * request is refused (the sliding-window log holds every request of the last 60 s whatever the
 * limit: the keyed figure includes a full window).
 */
export async function createBenchProject(controlPlaneUrl: string, redis: Redis, pool: Pool, keyLimitPerMin: number): Promise<BenchProject> {
  const api = `${controlPlaneUrl}/v1`;
  const token = await signIn(api);
  const subdomain = `stack-bench-${randomBytes(4).toString('hex')}`;
  const project = await expectStatus<{ id: string }>('create project', call(api, '/projects', { method: 'POST', token, body: { name: 'Stack bench', subdomain } }), 201);
  const id: string = project.id;
  const remove = async () => {
    await call(api, `/projects/${id}`, { method: 'DELETE', token });
    await pool.query('DELETE FROM request_logs WHERE project_id = $1', [id]);
    await pool.query('DELETE FROM request_log_rollups WHERE project_id = $1', [id]);
    await pool.query('DELETE FROM request_log_rollup_deltas WHERE project_id = $1', [id]);
  };
  try {
    for (const [path, auth] of [
      ['/shout', 'none'],
      ['/shout-keyed', 'user'],
    ] as const) {
      const endpoint = await expectStatus<{ id: string }>(
        `create ${path}`,
        call(api, `/projects/${id}/endpoints`, {
          method: 'POST',
          token,
          body: { name: path.slice(1), method: 'GET', path, auth, query_params: [{ key: 'name', default: null }], flow: FLOW },
        }),
        201,
      );
      await expectStatus(`deploy ${path}`, call(api, `/projects/${id}/endpoints/${endpoint.id}/deploy`, { method: 'POST', token }), 200);
    }
    const created = await expectStatus<{ key: string; key_data: { id: string } }>(
      'create key',
      call(api, `/projects/${id}/api-keys`, { method: 'POST', token, body: { name: 'bench', permission: 'user', ratelimit_min: 60 } }),
      201,
    );
    const record = apiKeyRecordKey(id, sha256Hex(created.key));
    if ((await redis.exists(record)) !== 1) throw new Error(`the key's record ${record} is not in Redis`);
    await redis.hset(record, 'ratelimit_min', String(keyLimitPerMin));
    await pool.query('UPDATE api_keys SET ratelimit_min = $2 WHERE id = $1', [created.key_data.id, keyLimitPerMin]);
    return { id, subdomain, key: created.key, keyId: created.key_data.id, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
