import { qualifiedTable } from '@flowgate/data-tables';
import { call, createThrowawayDatabase, type ThrowawayDatabase, waitFor } from '@flowgate/testing';
import { Client } from 'pg';
import type { Gateway } from '../../apps/gateway/src/gateway';
import { startGateway } from '../../apps/gateway/src/testing/gateway-harness';
import { type TestAccount, type TestApp, startTestApp } from '../../apps/control-plane/src/testing/test-app';

/**
 * The five table blocks end to end: tables made through the REST API, flows deployed by the
 * control plane, called through a real gateway (PostgreSQL: both databases, Redis).
 */
type Json = Record<string, unknown>;
type Block = { id: string; type: string; config: Json };

/** Start → the blocks in order → Respond. */
function chain(blocks: Block[], body: unknown): Json {
  const all = [...blocks, { id: 'out', type: 'respond', config: { status: 200, body } }];
  return {
    nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, ...all.map((block, index) => ({ ...block, position: { x: 0, y: 120 * (index + 1) } }))],
    edges: all.map((block, index) => ({ id: `e${index}`, source: index === 0 ? 'start' : all[index - 1]!.id, target: block.id })),
  };
}

const ORDER_COLUMNS = [
  { name: 'email', type: 'text', required: true, unique: true },
  { name: 'total', type: 'number', indexed: true },
  { name: 'paid', type: 'boolean' },
];

describe('data tables: the table blocks through the gateway', () => {
  let t: TestApp;
  let gateway: Gateway;
  let owner: TestAccount;
  let project: { id: string; subdomain: string };
  let tableId: string;

  async function endpoint(account: TestAccount, projectId: string, method: string, path: string, flow: Json, queryParams: string[] = []) {
    const created = await t
      .http()
      .post(`/v1/projects/${projectId}/endpoints`)
      .set(account.auth)
      .send({ name: path, method, path, auth: 'none', query_params: queryParams.map((key) => ({ key, default: null })), flow })
      .expect(201);
    return created.body.id as string;
  }
  const deploy = (account: TestAccount, projectId: string, endpointId: string) =>
    t.http().post(`/v1/projects/${projectId}/endpoints/${endpointId}/deploy`).set(account.auth);
  async function live(account: TestAccount, projectId: string, method: string, path: string, flow: Json, queryParams: string[] = []) {
    const id = await endpoint(account, projectId, method, path, flow, queryParams);
    await deploy(account, projectId, id).expect(200);
    return id;
  }
  const gw = (subdomain: string, method: string, path: string, body?: unknown) =>
    call(gateway.url, `${subdomain}.localhost`, path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** The gateway serves what was deployed last (it learns of it by pub/sub). */
  const served = (subdomain: string, method: string, path: string, status: number, body?: unknown) =>
    waitFor(async () => ((await gw(subdomain, method, path, body)).status === status ? true : null), `${method} ${path} → ${status}`, 10_000);

  beforeAll(async () => {
    t = await startTestApp();
    gateway = await startGateway();
    owner = await t.signup();
    project = await t.createProject(owner);
    tableId = (await t.http().post(`/v1/projects/${project.id}/tables`).set(owner.auth).send({ name: 'orders', columns: ORDER_COLUMNS }).expect(201)).body.id;
    await live(owner, project.id, 'POST', '/orders', chain([{ id: 'ins', type: 'insert_row', config: { table: 'orders', values: { email: '{body.email}', total: '{body.total}' }, ref: 'order' } }], '{result.order}'));
    await live(owner, project.id, 'GET', '/order', chain([{ id: 'get', type: 'get_row', config: { table: 'orders', id: '{params.id}', ref: 'row' } }], { row: '{result.row}' }), ['id']);
    await live(
      owner,
      project.id,
      'GET',
      '/orders',
      chain(
        [{ id: 'q', type: 'query_rows', config: { table: 'orders', filter: [{ column: 'total', operator: 'gte', value: '{params.min}' }], sort: { column: 'total', direction: 'desc' }, limit: 2, ref: 'found' } }],
        { rows: '{result.found.rows}', count: '{result.found.count}' },
      ),
      ['min'],
    );
    await live(
      owner,
      project.id,
      'PATCH',
      '/orders',
      chain([{ id: 'upd', type: 'update_rows', config: { table: 'orders', filter: [{ column: 'email', operator: 'eq', value: '{body.email}' }], values: { paid: true }, ref: 'changed' } }], '{result.changed}'),
    );
    await live(
      owner,
      project.id,
      'DELETE',
      '/orders',
      chain([{ id: 'del', type: 'delete_rows', config: { table: 'orders', filter: [{ column: 'id', operator: 'eq', value: '{params.id}' }], ref: 'gone' } }], '{result.gone}'),
      ['id'],
    );
    await served(project.subdomain, 'GET', '/orders?min=0', 200);
  }, 120_000);
  afterAll(async () => {
    await gateway.close();
    await t.close();
  });

  it('inserts, reads by id, queries, updates and deletes rows through flows', async () => {
    const ada = await gw(project.subdomain, 'POST', '/orders', { email: 'ada@shop.test', total: '42.5' });
    expect(ada.status).toBe(200);
    expect(ada.json).toMatchObject({ id: expect.any(String), email: 'ada@shop.test', total: 42.5, paid: null, created_at: expect.any(String) });
    const id = (ada.json as Json).id as string;
    await gw(project.subdomain, 'POST', '/orders', { email: 'bob@shop.test', total: 10 });
    await gw(project.subdomain, 'POST', '/orders', { email: 'cy@shop.test', total: 99 });

    expect((await gw(project.subdomain, 'GET', `/order?id=${id}`)).json).toEqual({ row: ada.json });
    expect((await gw(project.subdomain, 'GET', '/order?id=0190a1b2-0000-7000-8000-000000000000')).json).toEqual({ row: null });
    expect((await gw(project.subdomain, 'GET', '/order?id=not-an-id')).json).toEqual({ row: null });

    const top = (await gw(project.subdomain, 'GET', '/orders?min=20')).json as { rows: Json[]; count: number };
    expect(top.rows.map((row) => row.email)).toEqual(['cy@shop.test', 'ada@shop.test']);
    expect(top.count).toBe(2);

    const paid = (await gw(project.subdomain, 'PATCH', '/orders', { email: 'bob@shop.test' })).json as { count: number; rows: Json[] };
    expect(paid).toMatchObject({ count: 1, rows: [{ email: 'bob@shop.test', paid: true }] });

    expect((await gw(project.subdomain, 'DELETE', `/orders?id=${id}`)).json).toEqual({ count: 1 });
    expect((await gw(project.subdomain, 'GET', `/order?id=${id}`)).json).toEqual({ row: null });
    // The REST API sees what the flows wrote.
    const rows = await t.http().get(`/v1/projects/${project.id}/tables/${tableId}/rows`).set(owner.auth).expect(200);
    expect(rows.body.items.map((row: Json) => row.email)).toEqual(['bob@shop.test', 'cy@shop.test']);
  });

  it('answers 422 invalid_value naming block and column, and 409 unique_violation', async () => {
    const wrong = await gw(project.subdomain, 'POST', '/orders', { email: 'dee@shop.test', total: 'lots' });
    expect(wrong.status).toBe(422);
    expect(wrong.json).toMatchObject({ code: 'invalid_value', message: expect.stringMatching(/^Insert Row \(ins\): total expects a number/) });
    const missing = await gw(project.subdomain, 'POST', '/orders', { total: 3 });
    expect(missing.json).toMatchObject({ code: 'invalid_value', message: 'Insert Row (ins): email is required' });
    await gw(project.subdomain, 'POST', '/orders', { email: 'eve@shop.test', total: 1 });
    const again = await gw(project.subdomain, 'POST', '/orders', { email: 'eve@shop.test', total: 2 });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'unique_violation', message: expect.stringContaining('email') });
  });

  it('answers 422 invalid_value naming the column for NUL or a lone surrogate from a request, never the database\'s words', async () => {
    const refusals = [
      await gw(project.subdomain, 'POST', '/orders', { email: 'nul\u0000@shop.test', total: 1 }),
      await gw(project.subdomain, 'POST', '/orders', { email: 'half\ud800@shop.test', total: 1 }),
      await gw(project.subdomain, 'PATCH', '/orders', { email: 'nul\u0000@shop.test' }),
      await gw(project.subdomain, 'PATCH', '/orders', { email: '\udc00' }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(422);
      expect(refused.json).toMatchObject({ code: 'invalid_value', message: expect.stringMatching(/\((ins|upd)\): email contains a (NUL character|lone surrogate)/) });
      expect(JSON.stringify(refused.json)).not.toMatch(/invalid byte sequence|unsupported Unicode|SQLSTATE|UTF8/);
    }
    const rows = await t.http().get(`/v1/projects/${project.id}/tables/${tableId}/rows`).query({ filter: JSON.stringify([{ column: 'email', operator: 'contains', value: 'shop' }]) }).set(owner.auth).expect(200);
    expect(rows.body.items.map((row: Json) => row.email)).not.toContainEqual(expect.stringMatching(/nul|half/));
  });

  it('refuses at deploy an unknown table, an unknown column and an operator that does not fit the column', async () => {
    const flow = chain(
      [
        { id: 'a', type: 'query_rows', config: { table: 'nope', ref: 'x' } },
        { id: 'b', type: 'query_rows', config: { table: 'orders', filter: [{ column: 'colour', operator: 'eq', value: 'red' }, { column: 'paid', operator: 'gt', value: true }], ref: 'y' } },
        { id: 'c', type: 'insert_row', config: { table: 'orders', values: { total: 1 }, ref: 'z' } },
      ],
      {},
    );
    const id = await endpoint(owner, project.id, 'GET', '/broken', flow);
    const refused = await deploy(owner, project.id, id).expect(400);
    expect(refused.body.code).toBe('invalid_flow');
    expect(refused.body.details.map((d: Json) => [d.code, d.node_id, d.field])).toEqual(
      expect.arrayContaining([
        ['unknown_table', 'a', 'table'],
        ['unknown_column', 'b', 'filter.0.column'],
        ['operator_type_mismatch', 'b', 'filter.1.operator'],
        ['missing_required_column', 'c', 'values'],
      ]),
    );
  });

  it('refuses renaming or dropping a column and deleting the table while a live flow uses it', async () => {
    const renamed = ORDER_COLUMNS.map((column) => (column.name === 'total' ? { ...column, name: 'amount', renamed_from: 'total' } : column));
    const refused = await t.http().patch(`/v1/projects/${project.id}/tables/${tableId}`).set(owner.auth).send({ columns: renamed }).expect(409);
    expect(refused.body).toMatchObject({ code: 'column_in_use', message: expect.stringContaining('GET /orders') });
    // A column no flow names can be renamed.
    const paidRenamed = ORDER_COLUMNS.map((column) => (column.name === 'paid' ? { ...column, name: 'settled', renamed_from: 'paid' } : column));
    const ok = await t.http().patch(`/v1/projects/${project.id}/tables/${tableId}`).set(owner.auth).send({ columns: paidRenamed }).expect(409);
    // …except that the PATCH flow sets `paid`: still refused, naming that endpoint.
    expect(ok.body.message).toContain('PATCH /orders');
    const inUse = await t.http().delete(`/v1/projects/${project.id}/tables/${tableId}`).set(owner.auth).expect(409);
    expect(inUse.body).toMatchObject({ code: 'table_in_use', message: expect.stringContaining('POST /orders') });
  });

  it("keeps projects apart: B's flows and REST calls with A's table name, row ids and crafted filters see none of A's rows", async () => {
    const a = await gw(project.subdomain, 'POST', '/orders', { email: 'secret@a.test', total: 7 });
    const aRow = (a.json as Json).id as string;
    const intruder = await t.signup();
    const other = await t.createProject(intruder);
    // B has no table `orders`: a flow naming it is refused at deploy.
    const naming = await endpoint(intruder, other.id, 'GET', '/steal', chain([{ id: 'q', type: 'query_rows', config: { table: 'orders', ref: 'x' } }], '{result.x}'));
    expect((await deploy(intruder, other.id, naming).expect(400)).body.details[0]).toMatchObject({ code: 'unknown_table' });
    // B's own `orders` table: its flows see only B's rows, whatever id or filter they craft.
    const own = await t.http().post(`/v1/projects/${other.id}/tables`).set(intruder.auth).send({ name: 'orders', columns: ORDER_COLUMNS }).expect(201);
    await live(intruder, other.id, 'GET', '/look', chain([{ id: 'q', type: 'query_rows', config: { table: 'orders', filter: [{ column: 'email', operator: 'contains', value: '{params.q}' }], limit: 1000, ref: 'x' } }], '{result.x}'), ['q']);
    await live(intruder, other.id, 'GET', '/one', chain([{ id: 'g', type: 'get_row', config: { table: 'orders', id: '{params.id}', ref: 'r' } }], { row: '{result.r}' }), ['id']);
    await live(intruder, other.id, 'GET', '/wipe', chain([{ id: 'd', type: 'delete_rows', config: { table: 'orders', filter: [{ column: 'id', operator: 'eq', value: '{params.id}' }], ref: 'n' } }], '{result.n}'), ['id']);
    await served(other.subdomain, 'GET', '/look?q=x', 200);
    for (const crafted of ['', '%', "' OR '1'='1", 'secret', '"; SELECT * FROM orders; --'])
      expect((await gw(other.subdomain, 'GET', `/look?q=${encodeURIComponent(crafted)}`)).json).toEqual({ rows: [], count: 0 });
    expect((await gw(other.subdomain, 'GET', `/one?id=${aRow}`)).json).toEqual({ row: null });
    expect((await gw(other.subdomain, 'GET', `/wipe?id=${aRow}`)).json).toEqual({ count: 0 });
    // B's REST calls: A's row id in B's own table is not found; a crafted filter column is refused.
    await t.http().get(`/v1/projects/${other.id}/tables/${own.body.id}/rows/${aRow}`).set(intruder.auth).expect(404);
    await t.http().get(`/v1/projects/${other.id}/tables/${tableId}/rows`).set(intruder.auth).expect(404);
    const crafted = await t
      .http()
      .get(`/v1/projects/${other.id}/tables/${own.body.id}/rows`)
      .query({ filter: JSON.stringify([{ column: 'email" OR 1=1 --', operator: 'eq', value: 'x' }]) })
      .set(intruder.auth)
      .expect(400);
    expect(crafted.body.code).toBe('invalid_request');
    // A's row is still there.
    expect((await gw(project.subdomain, 'GET', `/order?id=${aRow}`)).json).toMatchObject({ row: { email: 'secret@a.test' } });
  });

  it('shows the rows read and written in a test run trace', async () => {
    const id = await endpoint(owner, project.id, 'GET', '/trace', chain([{ id: 'q', type: 'query_rows', config: { table: 'orders', filter: [{ column: 'email', operator: 'eq', value: 'cy@shop.test' }], ref: 'found' } }], '{result.found.count}'));
    const run = await t.http().post(`/v1/projects/${project.id}/endpoints/${id}/test-runs`).set(owner.auth).send({}).expect(200);
    expect(run.body.trace[0]).toMatchObject({ node_id: 'q', status: 'ok', output: { count: 1, rows: [{ email: 'cy@shop.test', total: 99 }] } });
  });

  it('deletes a table in use with force=true; its flows then fail naming the table', async () => {
    const scratch = (await t.http().post(`/v1/projects/${project.id}/tables`).set(owner.auth).send({ name: 'scratch', columns: [] }).expect(201)).body;
    await live(owner, project.id, 'GET', '/scratch', chain([{ id: 'q', type: 'query_rows', config: { table: 'scratch', ref: 's' } }], '{result.s.count}'));
    await served(project.subdomain, 'GET', '/scratch', 200);
    await t.http().delete(`/v1/projects/${project.id}/tables/${scratch.id}`).set(owner.auth).expect(409);
    await t.http().delete(`/v1/projects/${project.id}/tables/${scratch.id}`).query({ force: 'true' }).set(owner.auth).expect(204);
    await served(project.subdomain, 'GET', '/scratch', 500);
    expect((await gw(project.subdomain, 'GET', '/scratch')).json).toMatchObject({ code: 'flow_error', message: 'Query Rows (q): the project has no table scratch' });
  });

  describe("the gateway's data pool, shared between projects", () => {
    let release: (() => Promise<void>) | null = null;
    afterEach(async () => {
      await release?.();
      release = null;
    });

    /** Holds an exclusive lock on the `orders` table: every statement on it waits, as long as the test wants. */
    async function lockOrders(): Promise<void> {
      const client = new Client({ connectionString: t.config.data.url });
      await client.connect();
      await client.query('BEGIN');
      await client.query(`LOCK TABLE ${qualifiedTable({ projectId: project.id, tableId })} IN ACCESS EXCLUSIVE MODE`);
      release = async () => {
        await client.query('ROLLBACK');
        await client.end();
      };
    }
    /** Statements of gateways waiting for that lock. */
    async function waitingOnOrders(): Promise<number> {
      const client = new Client({ connectionString: t.config.data.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ count: string }>(
          "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'flowgate-gateway' AND wait_event_type = 'Lock' AND strpos(query, $1) > 0",
          [qualifiedTable({ projectId: project.id, tableId })],
        );
        return Number(rows[0]!.count);
      } finally {
        await client.end();
      }
    }

    it("answers another project's 1-row query while one project's 16 slow queries fill its half of the pool", async () => {
      const other = await t.signup();
      const quiet = await t.createProject(other);
      await t.http().post(`/v1/projects/${quiet.id}/tables`).set(other.auth).send({ name: 'notes', columns: [{ name: 'text', type: 'text' }] }).expect(201);
      await live(other, quiet.id, 'POST', '/note', chain([{ id: 'ins', type: 'insert_row', config: { table: 'notes', values: { text: 'hi' }, ref: 'r' } }], '{result.r}'));
      await live(other, quiet.id, 'GET', '/notes', chain([{ id: 'q', type: 'query_rows', config: { table: 'notes', limit: 1, ref: 'found' } }], '{result.found.count}'));
      await served(quiet.subdomain, 'POST', '/note', 200);

      await lockOrders();
      let settled = 0;
      const slow = Array.from({ length: 16 }, () => gw(project.subdomain, 'GET', '/orders?min=0').then((answer) => (settled++, answer.status)));
      // DATA_POOL_SIZE 10: the project holds 5 connections, its other 11 statements wait in its line.
      await waitFor(async () => (await waitingOnOrders()) === 5, 'the noisy project holding its half of the pool');
      const answer = await gw(quiet.subdomain, 'GET', '/notes');
      expect(answer.status).toBe(200);
      expect(answer.json).toBe(1);
      expect(settled).toBe(0);
      await release!();
      release = null;
      expect(await Promise.all(slow)).toEqual(Array(16).fill(200));
    });

    it('cancels a statement on the server when its run ends at the deadline', async () => {
      const short = await startGateway({ FLOW_TIMEOUT_MS: '1000' });
      try {
        await waitFor(async () => (await call(short.url, `${project.subdomain}.localhost`, '/orders?min=0')).status === 200, 'the gateway serving the project');
        await lockOrders();
        const answers = await Promise.all(Array.from({ length: 3 }, () => call(short.url, `${project.subdomain}.localhost`, '/orders?min=0')));
        expect(answers.map((answer) => answer.json)).toEqual(Array(3).fill(expect.objectContaining({ code: 'flow_timeout' })));
        // The lock is still held: only a cancel takes the statements off the server.
        await waitFor(async () => (await waitingOnOrders()) === 0, 'the statements of the ended runs cancelled');
      } finally {
        await short.close();
      }
    });
  });
});

describe('data tables: the limits of one project', () => {
  let data: ThrowawayDatabase;
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    data = await createThrowawayDatabase('flowgate_data_limits');
    t = await startTestApp((config) => ({ ...config, data: { ...config.data, url: data.url, maxTables: 2, limits: { maxRowsPerProject: 3, maxBytesPerProject: 1_000_000, maxBytesPerRow: 2048 } } }));
    owner = await t.signup();
  });
  afterAll(async () => {
    await t.close();
    await data.drop();
  });

  it('answers 507 data_limit_reached past the rows, bytes per row and tables of a project, in flows and REST', async () => {
    const project = await t.createProject(owner);
    const table = (await t.http().post(`/v1/projects/${project.id}/tables`).set(owner.auth).send({ name: 'notes', columns: [{ name: 'text', type: 'text' }] }).expect(201)).body;
    const rows = `/v1/projects/${project.id}/tables/${table.id}/rows`;
    const big = await t.http().post(rows).set(owner.auth).send({ values: { text: 'x'.repeat(5000) } }).expect(507);
    expect(big.body).toMatchObject({ code: 'data_limit_reached', message: expect.stringContaining('per row') });
    for (let index = 0; index < 3; index++) await t.http().post(rows).set(owner.auth).send({ values: { text: `n${index}` } }).expect(201);
    const full = await t.http().post(rows).set(owner.auth).send({ values: { text: 'one too many' } }).expect(507);
    expect(full.body.message).toContain('the limit is 3');

    const created = await t
      .http()
      .post(`/v1/projects/${project.id}/endpoints`)
      .set(owner.auth)
      .send({ name: 'Add', method: 'POST', path: '/notes', auth: 'none', flow: chain([{ id: 'ins', type: 'insert_row', config: { table: 'notes', values: { text: 'from a flow' }, ref: 'n' } }], '{result.n}') })
      .expect(201);
    const run = await t.http().post(`/v1/projects/${project.id}/endpoints/${created.body.id}/test-runs`).set(owner.auth).send({}).expect(200);
    expect(run.body.response).toMatchObject({ status: 507, body: { code: 'data_limit_reached', message: expect.stringMatching(/^Insert Row \(ins\): the project would hold 4 rows/) } });
    // Deleting a row makes room again.
    const first = (await t.http().get(rows).set(owner.auth).expect(200)).body.items[0];
    await t.http().delete(`${rows}/${first.id}`).set(owner.auth).expect(204);
    await t.http().post(rows).set(owner.auth).send({ values: { text: 'fits again' } }).expect(201);

    await t.http().post(`/v1/projects/${project.id}/tables`).set(owner.auth).send({ name: 'second', columns: [] }).expect(201);
    const third = await t.http().post(`/v1/projects/${project.id}/tables`).set(owner.auth).send({ name: 'third', columns: [] }).expect(507);
    expect(third.body.message).toContain('DATA_MAX_TABLES_PER_PROJECT');
  });
});
