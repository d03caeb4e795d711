import { qualifiedTable } from '@flowgate/data-tables';
import { waitFor } from '@flowgate/testing';
import { Client } from 'pg';
import { startTestApp, type TestAccount, type TestApp } from '../testing/test-app';

/**
 * The rows API's share of the data database per account, and its statement timeout, against the
 * real PostgreSQL. A table locked by a transaction of the test holds every statement on it for as
 * long as the test wants: "slow" without depending on how fast the machine is.
 */
describe('data tables: the rows API shares the data database between accounts', () => {
  /** A control plane with a data pool of `poolSize`, and an account with a table of one row. */
  async function start(poolSize: number, statementTimeoutMs: number) {
    const t = await startTestApp((config) => ({ ...config, data: { ...config.data, poolSize, statementTimeoutMs } }));
    const account = await t.signup();
    const project = await t.createProject(account);
    const table = await t.http().post(`/v1/projects/${project.id}/tables`).set(account.auth).send({ name: 'notes', columns: [{ name: 'text', type: 'text' }] }).expect(201);
    const rows = `/v1/projects/${project.id}/tables/${table.body.id}/rows`;
    await t.http().post(rows).set(account.auth).send({ values: { text: 'hello' } }).expect(201);
    return { t, account, rows, location: { projectId: project.id as string, tableId: table.body.id as string } };
  }

  /** Holds an exclusive lock on the table until `release`: every statement on it waits. */
  async function lock(t: TestApp, location: { projectId: string; tableId: string }): Promise<() => Promise<void>> {
    const client = new Client({ connectionString: t.config.data.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${qualifiedTable(location)} IN ACCESS EXCLUSIVE MODE`);
    return async () => {
      await client.query('ROLLBACK');
      await client.end();
    };
  }

  /** Statements on the table waiting for its lock. */
  async function waitingForLock(t: TestApp, location: { projectId: string; tableId: string }): Promise<number> {
    const client = new Client({ connectionString: t.config.data.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: string }>(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'flowgate-control-plane-rows' AND wait_event_type = 'Lock' AND strpos(query, $1) > 0",
        [qualifiedTable(location)],
      );
      return Number(rows[0]!.count);
    } finally {
      await client.end();
    }
  }

  describe('per-account share', () => {
    let noisy: Awaited<ReturnType<typeof start>>;
    let quiet: { account: TestAccount; rows: string };
    beforeAll(async () => {
      noisy = await start(4, 60_000);
      const account = await noisy.t.signup();
      const project = await noisy.t.createProject(account);
      const table = await noisy.t.http().post(`/v1/projects/${project.id}/tables`).set(account.auth).send({ name: 'own', columns: [{ name: 'n', type: 'number' }] }).expect(201);
      const rows = `/v1/projects/${project.id}/tables/${table.body.id}/rows`;
      await noisy.t.http().post(rows).set(account.auth).send({ values: { n: 1 } }).expect(201);
      quiet = { account, rows };
    });
    afterAll(() => noisy.t.close());

    it("answers another account's `GET …/rows?limit=5` while one account's 12 statements hold its half of the pool", async () => {
      const release = await lock(noisy.t, noisy.location);
      let settled = 0;
      const slow = Array.from({ length: 12 }, () =>
        noisy.t
          .http()
          .get(`${noisy.rows}?limit=5`)
          .set(noisy.account.auth)
          .then((response) => (settled++, response.status)),
      );
      try {
        await waitFor(async () => (await waitingForLock(noisy.t, noisy.location)) === 2, "the noisy account's statements holding its two connections");
        const answer = await noisy.t.http().get(`${quiet.rows}?limit=5`).set(quiet.account.auth);
        expect(answer.status).toBe(200);
        expect(answer.body.items).toEqual([expect.objectContaining({ n: 1 })]);
        expect(settled).toBe(0); // all twelve still wait for the lock: the quiet account was not behind them
      } finally {
        await release();
      }
      expect(await Promise.all(slow)).toEqual(Array(12).fill(200));
    });

    it('refuses more than 20 filter conditions with 400 invalid_request naming the filter', async () => {
      const filter = JSON.stringify(Array.from({ length: 21 }, () => ({ column: 'n', operator: 'gt', value: 0 })));
      const answer = await noisy.t.http().get(`${quiet.rows}?filter=${encodeURIComponent(filter)}`).set(quiet.account.auth).expect(400);
      expect(answer.body).toMatchObject({
        code: 'invalid_request',
        details: [{ path: 'filter', message: 'may have at most 20 conditions, as in the table blocks' }],
      });
      const twenty = JSON.stringify(Array.from({ length: 20 }, () => ({ column: 'n', operator: 'gt', value: 0 })));
      await noisy.t.http().get(`${quiet.rows}?filter=${encodeURIComponent(twenty)}`).set(quiet.account.auth).expect(200);
    });
  });

  describe('statement timeout (DATA_STATEMENT_TIMEOUT_MS)', () => {
    let app: Awaited<ReturnType<typeof start>>;
    beforeAll(async () => {
      app = await start(4, 300);
    });
    afterAll(() => app.t.close());

    it('stops a statement that runs past it with 504 query_timeout, and serves the next one', async () => {
      const release = await lock(app.t, app.location);
      try {
        const answer = await app.t.http().get(`${app.rows}?limit=5`).set(app.account.auth).expect(504);
        expect(answer.body).toEqual({
          success: false,
          code: 'query_timeout',
          message: expect.stringContaining('DATA_STATEMENT_TIMEOUT_MS'),
        });
      } finally {
        await release();
      }
      const again = await app.t.http().get(`${app.rows}?limit=5`).set(app.account.auth).expect(200);
      expect(again.body.items).toEqual([expect.objectContaining({ text: 'hello' })]);
    });
  });
});
