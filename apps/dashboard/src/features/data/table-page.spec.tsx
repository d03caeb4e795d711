/** @jest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type Handler, project } from '../../testing/fake-api';
import { fakeTablesApi } from '../../testing/fake-tables';
import { renderRoute } from '../../testing/render-route';

const COLUMNS = [
  { name: 'name', type: 'text', required: true },
  { name: 'total', type: 'number' },
  { name: 'paid', type: 'boolean' },
  { name: 'meta', type: 'json' },
];

function openTable(rows = 0, extra: Record<string, Handler> = {}) {
  const api = fakeTablesApi([{ name: 'orders', columns: COLUMNS, rows }], extra);
  const table = api.tables[0]!;
  const path = `/projects/${project.id}/data/${table.id}`;
  return { ...api, table, path, view: renderRoute(path) };
}

const dataRows = () => screen.getAllByRole('row').filter((row) => within(row).queryByRole('button', { name: 'Edit row' }));

describe('a table’s page', () => {
  it('shows id, the columns, created_at and updated_at, 50 rows a page with Back and Next', async () => {
    openTable(60);
    await screen.findByRole('heading', { name: 'orders' });
    await screen.findByText('row 1');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['id', 'name', 'total', 'paid', 'meta', 'created_at', 'updated_at', 'Actions']);
    expect(dataRows()).toHaveLength(50);
    const back = screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement;
    expect(back.disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('row 51');
    expect(dataRows()).toHaveLength(10);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(back);
    await screen.findByText('row 1');
    expect(back.disabled).toBe(true);
  });

  it('adds a row from one field per column, typed by column', async () => {
    const { calls } = openTable();
    await screen.findByText('No rows yet');
    await userEvent.click(screen.getByRole('button', { name: 'Add row' }));
    const dialog = screen.getByRole('dialog', { name: 'Add row' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'name' }), 'Ada');
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: 'total' }), '12.5');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'paid' }), 'true');
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'meta' }));
    await userEvent.paste('{"tags":["a"]}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save row' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ values: { name: 'Ada', total: 12.5, paid: true, meta: { tags: ['a'] } } });
    expect(screen.getByRole('status').textContent).toBe('Row added');
    const row = await screen.findByRole('row', { name: /Ada/ });
    expect(row.textContent).toContain('{"tags":["a"]}');
  });

  it('marks what cannot be stored before sending, and what the server refused beside its field', async () => {
    const { calls, table } = openTable(0, {});
    await screen.findByText('No rows yet');
    await userEvent.click(screen.getByRole('button', { name: 'Add row' }));
    const dialog = screen.getByRole('dialog', { name: 'Add row' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'meta' }), 'not json');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save row' }));
    expect(within(dialog).getByRole('textbox', { name: 'name' }).getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByRole('textbox', { name: 'meta' }).getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText('meta is not valid JSON')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    // The server's 409 names the column: shown beside it, the dialog stays with what was typed.
    fakeTablesApi([], {
      [`POST /v1/projects/${project.id}/tables/${table.id}/rows`]: () => [
        409,
        { success: false, code: 'unique_violation', message: 'Another row has this name', details: [{ path: 'values.name', message: 'Another row has this name' }] },
      ],
    });
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'meta' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'name' }), 'Ada');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save row' }));
    await within(dialog).findByRole('alert');
    const name = within(dialog).getByRole('textbox', { name: 'name' }) as HTMLInputElement;
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.value).toBe('Ada');
  });

  it('edits a row (emptied fields become null) and deletes one after confirming', async () => {
    const { calls, table } = openTable(2);
    await screen.findByText('row 2');
    await userEvent.click(within(dataRows()[1]!).getByRole('button', { name: 'Edit row' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit row' });
    const name = within(dialog).getByRole('textbox', { name: 'name' }) as HTMLInputElement;
    expect(name.value).toBe('row 2');
    await userEvent.clear(name);
    await userEvent.type(name, 'second');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save row' }));
    await screen.findByText('second');
    const patch = calls.find((call) => call.method === 'PATCH')!;
    expect(patch.path).toBe(`/v1/projects/${project.id}/tables/${table.id}/rows/${String(table.rows[1]!.id)}`);
    expect(patch.body).toEqual({ values: { name: 'second', total: null, paid: null, meta: null } });

    await userEvent.click(within(dataRows()[0]!).getByRole('button', { name: 'Delete row' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete row?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('row 1')).toBeNull());
    expect(dataRows()).toHaveLength(1);
    // Focus is not lost with the deleted row's button.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add row' })));
  });

  it('edits columns: a rename is sent as renamed_from and keeps the values', async () => {
    const { calls } = openTable(1);
    await screen.findByText('row 1');
    await userEvent.click(screen.getByRole('button', { name: 'Edit columns' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit columns' });
    const first = within(dialog).getAllByRole('textbox', { name: 'Column name' })[0]!;
    await userEvent.clear(first);
    await userEvent.type(first, 'customer');
    expect(within(dialog).getByText('Renamed from name')).toBeTruthy();
    await userEvent.click(within(within(dialog).getAllByRole('group')[3]!).getByRole('button', { name: 'Remove column' }));
    expect(within(dialog).getByText(/Removing meta deletes its values/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save columns' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      columns: [
        { name: 'customer', type: 'text', required: true, unique: false, indexed: false, renamed_from: 'name' },
        { name: 'total', type: 'number', required: false, unique: false, indexed: false },
        { name: 'paid', type: 'boolean', required: false, unique: false, indexed: false },
      ],
    });
    await screen.findByRole('columnheader', { name: 'customer' });
    expect(within(dataRows()[0]!).getByText('row 1')).toBeTruthy();
  });

  it('shows a refused type change beside the column the server names, and keeps the dialog open', async () => {
    openTable(1, {
      [`PATCH /v1/projects/${project.id}/tables/${fakeTableId()}`]: () => [
        409,
        { success: false, code: 'conversion_failed', message: 'Row 00000000-0000-7000-8000-000000001000: "row 1" is not a number', details: [{ path: 'columns.name', message: '"row 1" is not a number' }] },
      ],
    });
    await screen.findByText('row 1');
    await userEvent.click(screen.getByRole('button', { name: 'Edit columns' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit columns' });
    await userEvent.selectOptions(within(within(dialog).getAllByRole('group')[0]!).getByRole('combobox', { name: 'Type' }), 'number');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save columns' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/is not a number/);
    const name = within(dialog).getAllByRole('textbox', { name: 'Column name' })[0]!;
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Edit columns' })).toBeTruthy();
  });

  it('imports a CSV file, reports the first bad line, and links the CSV export', async () => {
    let answer: [number, unknown] = [200, { inserted: 2 }];
    const { calls, table } = openTable(0, { [`POST /v1/projects/${project.id}/tables/${fakeTableId()}/import`]: () => answer });
    await screen.findByText('No rows yet');
    const exportLink = screen.getByRole('link', { name: 'Export CSV' });
    expect(exportLink.getAttribute('href')).toBe(`/v1/projects/${project.id}/tables/${table.id}/export`);
    const csv = new File(['name,total\nAda,1\nBob,2\n'], 'orders.csv', { type: 'text/csv' });
    await userEvent.upload(screen.getByLabelText('Import CSV'), csv);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Imported 2 rows from orders.csv'));
    const sent = calls.find((call) => call.path.endsWith('/import'))!;
    expect(sent.method).toBe('POST');
    expect(sent.body).toBe(csv);

    answer = [400, { success: false, code: 'invalid_csv', message: 'Line 3: total must be a number' }];
    await userEvent.upload(screen.getByLabelText('Import CSV'), csv);
    expect((await screen.findByRole('alert')).textContent).toBe('orders.csv was not imported: Line 3: total must be a number');
  });

  it('deletes the table only once its name is typed, naming live endpoints that use it', async () => {
    const liveFlow = { nodes: [{ id: 'start', type: 'start' }, { id: 'n1', type: 'insert_row', config: { table: 'orders', values: {} } }], edges: [] };
    const endpoint = { id: 'e1', name: 'New order', method: 'POST', path: '/orders', status: 'live', flow: liveFlow };
    const { calls, view } = openTable(3, { [`GET /v1/projects/${project.id}/endpoints`]: () => [200, { items: [endpoint] }] });
    await screen.findByText('row 1');
    await userEvent.click(screen.getByRole('button', { name: 'Delete table' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete table orders?' });
    await within(dialog).findByText(/Live endpoints use it and will answer errors: New order \(POST \/orders\)/);
    const remove = within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Table name' }), 'order');
    expect(remove.disabled).toBe(true);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Table name' }), 's');
    await userEvent.click(remove);
    await waitFor(() => expect(view.router.state.location.pathname).toBe(`/projects/${project.id}/data`));
    expect(calls.find((call) => call.method === 'DELETE')?.path).toMatch(/\/tables\/[^/]+$/);
    expect(screen.getByRole('status').textContent).toBe('Table orders deleted');
    await screen.findByText('No tables yet');
  });

  it('asks again when the server says live endpoints use the table, then deletes with force', async () => {
    let forced = '';
    const tableId = fakeTableId();
    const { view } = openTable(0, {
      [`DELETE /v1/projects/${project.id}/tables/${tableId}`]: ({ query }) => {
        forced = query.get('force') ?? '';
        return forced === 'true' ? [204, null] : [409, { success: false, code: 'table_in_use', message: 'Live endpoints use the table orders: POST /checkout.', details: [{ path: 'POST /checkout', message: 'block n1' }, { path: 'POST /checkout', message: 'block n4' }] }];
      },
    });
    await screen.findByText('No rows yet');
    await userEvent.click(screen.getByRole('button', { name: 'Delete table' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete table orders?' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Table name' }), 'orders');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Live endpoints use it: POST /checkout. Delete again to delete it anyway; their table blocks then fail.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe(`/projects/${project.id}/data`));
    expect(forced).toBe('true');
  });

  it('shows a table of another project (or a deleted one) as not found', async () => {
    fakeTablesApi([]);
    renderRoute(`/projects/${project.id}/data/00000000-0000-7000-8000-999999999999`);
    await screen.findByText('This table does not exist, or it belongs to another account.');
  });
});

/** The id the fake gives the first table it holds (routes for it are needed before it exists). */
function fakeTableId() {
  return '00000000-0000-7000-8000-000000000001';
}
