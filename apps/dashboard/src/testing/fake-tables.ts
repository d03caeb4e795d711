import { fakeApi, type Handler, project, user } from './fake-api';

interface Column {
  name: string;
  type: string;
  required: boolean;
  unique: boolean;
  indexed: boolean;
}
interface Table {
  id: string;
  name: string;
  columns: Column[];
  rows: Array<Record<string, unknown>>;
}

const TIME = '2026-11-24T09:00:00.000Z';
const uuid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;

/**
 * The tables REST API of the contract over an in-memory project (the control plane is a separate
 * process): tables with rows, cursor pages, typed values, renames. `extra` routes win.
 */
export function fakeTablesApi(tables: Array<{ name: string; columns?: Array<Partial<Column> & { name: string; type: string }>; rows?: number }>, extra: Record<string, Handler> = {}) {
  let ids = 0;
  const store: Table[] = tables.map((table) => ({
    id: uuid(++ids),
    name: table.name,
    columns: (table.columns ?? []).map(withFlags),
    rows: Array.from({ length: table.rows ?? 0 }, (_, index) => ({ id: uuid(1000 + index), name: `row ${index + 1}`, created_at: TIME, updated_at: TIME })),
  }));
  const dto = ({ rows, ...table }: Table) => ({ ...table, row_count: rows.length, created_at: TIME, updated_at: TIME });
  const base = `/v1/projects/${project.id}/tables`;
  const byPath = (path: string) => store.find((table) => path.startsWith(`${base}/${table.id}`));
  const routes: Record<string, Handler> = {
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [project] }],
    [`GET /v1/projects/${project.id}`]: () => [200, project],
    [`GET /v1/projects/${project.id}/endpoints`]: () => [200, { items: [] }],
    [`GET ${base}`]: () => [200, { items: store.map(dto) }],
    [`POST ${base}`]: ({ body }) => {
      const input = body as { name: string; columns: Column[] };
      if (store.some((table) => table.name === input.name)) return [409, { success: false, code: 'table_exists', message: `A table named ${input.name} exists`, details: [{ path: 'name', message: 'is taken' }] }];
      const table = { id: uuid(++ids), name: input.name, columns: input.columns.map(withFlags), rows: [] };
      store.push(table);
      return [201, dto(table)];
    },
  };
  const found = (handler: (table: Table, request: Parameters<Handler>[0]) => ReturnType<Handler>): Handler => (request) => {
    const table = byPath(request.path);
    return table ? handler(table, request) : [404, { success: false, code: 'not_found', message: 'No such table' }];
  };
  routes[`GET ${base}/*`] = found((table) => [200, dto(table)]);
  routes[`PATCH ${base}/*`] = found((table, { body }) => {
    const input = body as { columns: Array<Column & { renamed_from?: string }> };
    for (const column of input.columns) {
      if (!column.renamed_from) continue;
      for (const row of table.rows) {
        row[column.name] = row[column.renamed_from];
        delete row[column.renamed_from];
      }
    }
    table.columns = input.columns.map(({ renamed_from: _renamed, ...column }) => withFlags(column));
    return [200, dto(table)];
  });
  routes[`DELETE ${base}/*`] = found((table) => {
    store.splice(store.indexOf(table), 1);
    return [204, null];
  });
  routes[`GET ${base}/*/rows`] = found((table, { query }) => {
    const limit = Number(query.get('limit') ?? 50);
    const from = Number(query.get('cursor') ?? 0);
    const items = table.rows.slice(from, from + limit);
    return [200, { items, next_cursor: from + limit < table.rows.length ? String(from + limit) : null }];
  });
  routes[`POST ${base}/*/rows`] = found((table, { body }) => {
    const row = { id: uuid(2000 + table.rows.length), ...(body as { values: object }).values, created_at: TIME, updated_at: TIME };
    table.rows.push(row);
    return [201, row];
  });
  const rowRoute =
    (method: string): Handler =>
    (request) => {
      const table = byPath(request.path);
      const row = table?.rows.find((candidate) => request.path.endsWith(`/rows/${String(candidate.id)}`));
      if (!table || !row) return [404, { success: false, code: 'not_found', message: 'No such row' }];
      if (method === 'DELETE') {
        table.rows.splice(table.rows.indexOf(row), 1);
        return [204, null];
      }
      Object.assign(row, (request.body as { values: object }).values);
      return [200, row];
    };
  routes[`PATCH ${base}/*/rows/*`] = rowRoute('PATCH');
  routes[`DELETE ${base}/*/rows/*`] = rowRoute('DELETE');
  const api = fakeApi({ ...routes, ...extra });
  return { ...api, tables: store };
}

function withFlags(column: Partial<Column> & { name: string; type: string }): Column {
  return { required: false, unique: false, indexed: false, ...column };
}
