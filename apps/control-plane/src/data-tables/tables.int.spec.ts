import { publishedProject, type TestAccount, type TestApp, startTestApp } from '../testing/test-app';

/** The data tables REST API against the real PostgreSQL (both databases) and Redis. */
describe('data tables: REST', () => {
  let t: TestApp;
  let owner: TestAccount;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
    projectId = (await t.createProject(owner)).id;
  });
  afterAll(() => t.close());

  const tables = () => `/v1/projects/${projectId}/tables`;
  const columns = [
    { name: 'email', type: 'text', required: true, unique: true },
    { name: 'age', type: 'number', indexed: true },
    { name: 'vip', type: 'boolean' },
    { name: 'born', type: 'datetime' },
    { name: 'meta', type: 'json' },
  ];

  async function createTable(name: string, cols: unknown[] = columns) {
    const response = await t.http().post(tables()).set(owner.auth).send({ name, columns: cols }).expect(201);
    return response.body as { id: string; name: string };
  }

  it('creates a table with typed columns, lists it with its row count and publishes it for the gateways', async () => {
    const created = await createTable('people');
    expect(created).toMatchObject({ name: 'people', row_count: 0, columns: expect.arrayContaining([{ name: 'age', type: 'number', required: false, unique: false, indexed: true }]) });
    const list = await t.http().get(tables()).set(owner.auth).expect(200);
    expect(list.body.items.map((table: { name: string }) => table.name)).toContain('people');
    const published = await publishedProject(t.redis, projectId);
    expect(published?.tables?.find((table) => table.name === 'people')).toMatchObject({ id: created.id, columns: expect.any(Array) });
  });

  it('refuses bad names and a second table of the same name', async () => {
    const bad = await t.http().post(tables()).set(owner.auth).send({ name: 'People', columns: [] }).expect(400);
    expect(bad.body.code).toBe('invalid_request');
    const reserved = await t.http().post(tables()).set(owner.auth).send({ name: 'x1', columns: [{ name: 'id', type: 'text' }] }).expect(400);
    expect(JSON.stringify(reserved.body.details)).toContain('columns');
    await createTable('twice', []);
    const again = await t.http().post(tables()).set(owner.auth).send({ name: 'twice', columns: [] }).expect(409);
    expect(again.body.code).toBe('conflict');
  });

  it('adds, reads, changes and deletes rows; wrong types are 400 naming the column; a duplicate is 409 unique_violation', async () => {
    const table = await createTable('members');
    const rows = `${tables()}/${table.id}/rows`;
    const added = await t.http().post(rows).set(owner.auth).send({ values: { email: 'ada@example.com', age: '36', vip: true, born: '1815-12-10', meta: { langs: ['en'] } } }).expect(201);
    expect(added.body).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'ada@example.com', age: 36, vip: true, born: '1815-12-10T00:00:00.000Z', meta: { langs: ['en'] } });
    expect(added.body.id[14]).toBe('7'); // UUID v7

    const wrong = await t.http().post(rows).set(owner.auth).send({ values: { email: 'bob@example.com', age: 'old' } }).expect(400);
    expect(wrong.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'values.age', message: expect.stringContaining('age expects a number') }] });
    const missing = await t.http().post(rows).set(owner.auth).send({ values: { age: 3 } }).expect(400);
    expect(missing.body.details).toEqual([{ path: 'values.email', message: 'email is required' }]);
    const duplicate = await t.http().post(rows).set(owner.auth).send({ values: { email: 'ada@example.com' } }).expect(409);
    expect(duplicate.body).toMatchObject({ code: 'unique_violation', details: [{ path: 'values.email', message: expect.any(String) }] });

    const got = await t.http().get(`${rows}/${added.body.id}`).set(owner.auth).expect(200);
    expect(got.body).toEqual(added.body);
    const patched = await t.http().patch(`${rows}/${added.body.id}`).set(owner.auth).send({ values: { age: 37 } }).expect(200);
    expect(patched.body).toMatchObject({ age: 37, email: 'ada@example.com' });
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(added.body.updated_at));
    await t.http().delete(`${rows}/${added.body.id}`).set(owner.auth).expect(204);
    await t.http().get(`${rows}/${added.body.id}`).set(owner.auth).expect(404);
    await t.http().delete(`${rows}/${added.body.id}`).set(owner.auth).expect(404);
  });

  it('pages rows with a cursor, filters with JSON conditions and sorts', async () => {
    const table = await createTable('scores', [
      { name: 'player', type: 'text' },
      { name: 'points', type: 'number', indexed: true },
    ]);
    const rows = `${tables()}/${table.id}/rows`;
    for (let index = 0; index < 7; index++) await t.http().post(rows).set(owner.auth).send({ values: { player: `p${index}`, points: index % 3 } }).expect(201);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Array<{ player: string }>; next_cursor: string | null } } = await t
        .http()
        .get(rows)
        .query({ limit: 3, sort: '-points', ...(cursor ? { cursor } : {}) })
        .set(owner.auth)
        .expect(200);
      seen.push(...page.body.items.map((row) => row.player));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(['p2', 'p5', 'p1', 'p4', 'p0', 'p3', 'p6']); // equal points in the order the rows were added

    const filtered = await t
      .http()
      .get(rows)
      .query({ filter: JSON.stringify([{ column: 'points', operator: 'gte', value: 1 }, { column: 'player', operator: 'in', value: ['p1', 'p2', 'p3'] }]) })
      .set(owner.auth)
      .expect(200);
    expect(filtered.body.items.map((row: { player: string }) => row.player)).toEqual(['p1', 'p2']);
    const contains = await t.http().get(rows).query({ filter: JSON.stringify([{ column: 'player', operator: 'contains', value: 'P6' }]) }).set(owner.auth).expect(200);
    expect(contains.body.items).toHaveLength(1);

    const badFilter = await t.http().get(rows).query({ filter: '[{"column":"nope","operator":"eq","value":1}]' }).set(owner.auth).expect(400);
    expect(badFilter.body.message).toContain('nope');
    const badOperator = await t.http().get(rows).query({ filter: '[{"column":"points","operator":"contains","value":"1"}]' }).set(owner.auth).expect(400);
    expect(badOperator.body.details).toEqual([{ path: 'filter', message: 'points: contains applies to text and json columns, not number' }]);
    await t.http().get(rows).query({ filter: 'not json' }).set(owner.auth).expect(400);
    await t.http().get(rows).query({ limit: 1001 }).set(owner.auth).expect(400);
    await t.http().get(rows).query({ cursor: 'forged' }).set(owner.auth).expect(400);
  });

  it('changes columns: adds, renames (renamed_from keeps the data), converts types or answers 409 conversion_failed naming the row', async () => {
    const table = await createTable('items', [
      { name: 'title', type: 'text' },
      { name: 'price', type: 'text' },
      { name: 'old', type: 'text' },
    ]);
    const rows = `${tables()}/${table.id}/rows`;
    const first = await t.http().post(rows).set(owner.auth).send({ values: { title: 'Pen', price: '1.5', old: 'x' } }).expect(201);
    const patched = await t
      .http()
      .patch(`${tables()}/${table.id}`)
      .set(owner.auth)
      .send({
        columns: [
          { name: 'name', type: 'text', renamed_from: 'title' },
          { name: 'price', type: 'number', indexed: true },
          { name: 'stock', type: 'number' },
        ],
      })
      .expect(200);
    expect(patched.body.columns.map((column: { name: string }) => column.name)).toEqual(['name', 'price', 'stock']);
    const row = await t.http().get(`${rows}/${first.body.id}`).set(owner.auth).expect(200);
    expect(row.body).toMatchObject({ name: 'Pen', price: 1.5, stock: null });
    expect(row.body).not.toHaveProperty('old');

    const bad = await t.http().post(rows).set(owner.auth).send({ values: { name: 'Book' } }).expect(201);
    const refused = await t
      .http()
      .patch(`${tables()}/${table.id}`)
      .set(owner.auth)
      .send({ columns: [{ name: 'name', type: 'number' }, { name: 'price', type: 'number' }, { name: 'stock', type: 'number' }] })
      .expect(409);
    expect(refused.body.code).toBe('conversion_failed');
    expect(refused.body.message).toContain(first.body.id);
    // Nothing changed: the column is still text and holds its values.
    expect((await t.http().get(`${rows}/${bad.body.id}`).set(owner.auth).expect(200)).body.name).toBe('Book');
    const required = await t
      .http()
      .patch(`${tables()}/${table.id}`)
      .set(owner.auth)
      .send({ columns: [{ name: 'name', type: 'text' }, { name: 'price', type: 'number', required: true }, { name: 'stock', type: 'number' }] })
      .expect(409);
    expect(required.body).toMatchObject({ code: 'conversion_failed', message: expect.stringContaining(bad.body.id) });
  });

  it('imports CSV all-or-nothing (the first bad line named) and exports it again', async () => {
    const table = await createTable('contacts', [
      { name: 'email', type: 'text', unique: true },
      { name: 'age', type: 'number' },
      { name: 'tags', type: 'json' },
    ]);
    const base = `${tables()}/${table.id}`;
    const csv = 'email,age,tags\na@x.io,30,"[""a""]"\n"b,@x.io",,{}\nc@x.io,41,null\n';
    const imported = await t.http().post(`${base}/import`).set(owner.auth).set('content-type', 'text/csv').send(csv).expect(201);
    expect(imported.body).toEqual({ inserted: 3 });

    const bad = await t.http().post(`${base}/import`).set(owner.auth).set('content-type', 'text/csv').send('email,age\nd@x.io,1\ne@x.io,many\n').expect(400);
    expect(bad.body.message).toMatch(/^Line 3: age expects a number/);
    const duplicate = await t.http().post(`${base}/import`).set(owner.auth).set('content-type', 'text/csv').send('email\nf@x.io\na@x.io\n').expect(409);
    expect(duplicate.body).toMatchObject({ code: 'unique_violation', message: expect.stringMatching(/^Line 3:/) });
    const unknown = await t.http().post(`${base}/import`).set(owner.auth).set('content-type', 'text/csv').send('email,nope\nx@x.io,1\n').expect(400);
    expect(unknown.body.message).toContain('nope');
    await t.http().post(`${base}/import`).set(owner.auth).set('content-type', 'application/json').send({}).expect(415);

    const exported = await t.http().get(`${base}/export`).set(owner.auth).expect(200);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
    const lines = exported.text.trim().split('\n');
    expect(lines[0]).toBe('id,created_at,updated_at,email,age,tags');
    expect(lines).toHaveLength(4);

    const copy = await createTable('contacts_copy', [
      { name: 'email', type: 'text', unique: true },
      { name: 'age', type: 'number' },
      { name: 'tags', type: 'json' },
    ]);
    await t.http().post(`${tables()}/${copy.id}/import`).set(owner.auth).set('content-type', 'text/csv').send(exported.text).expect(201);
    const again = await t.http().get(`${tables()}/${copy.id}/export`).set(owner.auth).expect(200);
    const body = (text: string) => text.trim().split('\n').map((line) => line.split(',').slice(3).join(','));
    expect(body(again.text)).toEqual(body(exported.text));
  });

  it('imports 100,000 rows in one request, and names line 100,001 when it is the first bad one (nothing stored then)', async () => {
    const table = await createTable('bulk', [
      { name: 'sku', type: 'text', unique: true },
      { name: 'qty', type: 'number' },
    ]);
    const base = `${tables()}/${table.id}`;
    const lines = (prefix: string, last: string | null) => {
      const out = ['sku,qty'];
      for (let index = 0; index < 100_000; index++) out.push(`${prefix}${index},${index % 97}`);
      if (last !== null) out[out.length - 1] = last;
      return `${out.join('\n')}\n`;
    };
    const imported = await t.http().post(`${base}/import`).set(owner.auth).set('content-type', 'text/csv').send(lines('a', null)).expect(201);
    expect(imported.body).toEqual({ inserted: 100_000 });
    const refused = await t.http().post(`${base}/import`).set(owner.auth).set('content-type', 'text/csv').send(lines('b', 'b-last,not a number')).expect(400);
    expect(refused.body.message).toMatch(/^Line 100001: qty expects a number/);
    expect((await t.http().get(base).set(owner.auth).expect(200)).body.row_count).toBe(100_000);
    // A hang turns into a failure after two minutes; the import itself takes seconds on a quiet machine.
  }, 120_000);

  it('deletes a table with its rows', async () => {
    const table = await createTable('scratch', [{ name: 'n', type: 'number' }]);
    await t.http().post(`${tables()}/${table.id}/rows`).set(owner.auth).send({ values: { n: 1 } }).expect(201);
    await t.http().delete(`${tables()}/${table.id}`).set(owner.auth).expect(204);
    await t.http().get(`${tables()}/${table.id}`).set(owner.auth).expect(404);
    expect((await publishedProject(t.redis, projectId))?.tables?.some((published) => published.id === table.id)).toBe(false);
  });

  it("never shows one project's tables or rows to another account", async () => {
    const table = await createTable('private_notes', [{ name: 'note', type: 'text' }]);
    const row = await t.http().post(`${tables()}/${table.id}/rows`).set(owner.auth).send({ values: { note: 'secret' } }).expect(201);
    const intruder = await t.signup();
    const own = await t.createProject(intruder);
    await t.http().get(tables()).set(intruder.auth).expect(404);
    await t.http().get(`${tables()}/${table.id}/rows/${row.body.id}`).set(intruder.auth).expect(404);
    // A's table id under B's own project names nothing.
    await t.http().get(`/v1/projects/${own.id}/tables/${table.id}/rows/${row.body.id}`).set(intruder.auth).expect(404);
    await t.http().get(`/v1/projects/${own.id}/tables/${table.id}/export`).set(intruder.auth).expect(404);
    await t.http().delete(`/v1/projects/${own.id}/tables/${table.id}`).set(intruder.auth).expect(404);
  });
});
