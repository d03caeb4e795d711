import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { waitFor } from '@flowgate/testing';
import { Client } from 'pg';
import { createDataPool } from './data-database';
import { DataError } from './data-error';
import { FairDataPool } from './fair-data-pool';

const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Statements of the pool that the server is running now. */
async function runningOn(applicationName: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ query: string }>(
      "SELECT query FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'",
      [applicationName],
    );
    return rows.map((row) => row.query);
  } finally {
    await client.end();
  }
}

/** The gateway's data pool on a real PostgreSQL: one project saturating its share, another still served. */
describe('FairDataPool (real PostgreSQL)', () => {
  const applicationName = `fair-pool-${randomUUID().slice(0, 8)}`;
  const fair = new FairDataPool(createDataPool({ url: databaseUrl, max: 4, applicationName }), 4);
  afterAll(() => fair.pool.end());

  it("answers another project's 1-row query while one project's slow statements fill its share, and cancels them when their run ends", async () => {
    const run = new AbortController();
    setMaxListeners(32, run.signal); // one run with sixteen statements at once: more than a flow makes
    const noisy = fair.forTenant('noisy', run.signal);
    // Sixteen statements that would run for a minute: two hold the project's share, fourteen wait.
    const slow = Array.from({ length: 16 }, () => noisy.query('SELECT pg_sleep(60)').then(() => 'finished', (error: unknown) => error));
    let settled = 0;
    for (const statement of slow) void statement.then(() => settled++);

    await waitFor(async () => (await runningOn(applicationName)).length === 2, 'the noisy project holding its two connections');
    const answer = await fair.forTenant('quiet').query<{ one: number }>('SELECT 1 AS one');
    expect(answer.rows).toEqual([{ one: 1 }]);
    expect(settled).toBe(0);
    expect(await runningOn(applicationName)).toEqual(['SELECT pg_sleep(60)', 'SELECT pg_sleep(60)']);

    run.abort(new Error('the run ended'));
    const outcomes = await Promise.all(slow);
    // The two running were cancelled on the server, the fourteen waiting left the line.
    expect(outcomes.filter((outcome) => outcome instanceof DataError && outcome.code === 'query_timeout')).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome instanceof Error && outcome.message === 'the run ended')).toHaveLength(14);
    expect(await runningOn(applicationName)).toEqual([]);
    // And the pool serves the project again.
    expect((await fair.forTenant('noisy').query<{ two: number }>('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });
});
