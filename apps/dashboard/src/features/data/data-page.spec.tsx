/** @jest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { project } from '../../testing/fake-api';
import { fakeTablesApi } from '../../testing/fake-tables';
import { renderRoute } from '../../testing/render-route';

const dataPath = `/projects/${project.id}/data`;

describe('Data page', () => {
  it('is in the project navigation and lists the tables as links with their row counts', async () => {
    const { tables } = fakeTablesApi([{ name: 'orders', columns: [{ name: 'name', type: 'text' }], rows: 1234 }, { name: 'users' }]);
    renderRoute(`/projects/${project.id}/keys`);
    await userEvent.click(await screen.findByRole('link', { name: 'Data' }));
    await screen.findByRole('heading', { name: 'Data' });
    const orders = await screen.findByRole('row', { name: /orders/ });
    expect(within(orders).getByRole('link', { name: 'orders' }).getAttribute('href')).toBe(`${dataPath}/${tables[0]!.id}`);
    expect(within(orders).getByText('1,234')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /users/ })).getByText('0')).toBeTruthy();
  });

  it('says there are no tables yet', async () => {
    fakeTablesApi([]);
    renderRoute(dataPath);
    await screen.findByText('No tables yet');
  });

  it('creates a table with its columns from New table, then opens it', async () => {
    const { calls, tables } = fakeTablesApi([]);
    const { router } = renderRoute(dataPath);
    await userEvent.click(await screen.findByRole('button', { name: 'New table' }));
    const dialog = screen.getByRole('dialog', { name: 'New table' });
    expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: 'Table name' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Table name' }), 'orders');
    // One blank column to start with; Add column adds a second and puts the cursor in its name.
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Column name' }), 'email');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Unique' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Required' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add column' }));
    expect(document.activeElement).toBe(within(dialog).getAllByRole('textbox', { name: 'Column name' })[1]);
    await userEvent.keyboard('total');
    const total = within(dialog).getAllByRole('group')[1]!;
    expect(within(total).getAllByRole('option').map((option) => option.textContent)).toEqual(['text', 'number', 'boolean', 'datetime', 'json']);
    await userEvent.selectOptions(within(total).getByRole('combobox', { name: 'Type' }), 'number');
    await userEvent.click(within(total).getByRole('checkbox', { name: 'Indexed' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add column' }));
    await userEvent.click(within(within(dialog).getAllByRole('group')[2]!).getByRole('button', { name: 'Remove column' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create table' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`${dataPath}/${tables[0]?.id}`));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'orders',
      columns: [
        { name: 'email', type: 'text', required: true, unique: true, indexed: false },
        { name: 'total', type: 'number', required: false, unique: false, indexed: true },
      ],
    });
    await screen.findByRole('heading', { name: 'orders' });
    expect(screen.getByRole('status').textContent).toBe('Table orders created');
  });

  it('reports bad names beside their fields and sends nothing', async () => {
    const { calls } = fakeTablesApi([]);
    renderRoute(dataPath);
    await userEvent.click(await screen.findByRole('button', { name: 'New table' }));
    const dialog = screen.getByRole('dialog', { name: 'New table' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Table name' }), 'My Orders');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Column name' }), 'id');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create table' }));
    const name = within(dialog).getByRole('textbox', { name: 'Table name' });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toMatch(/lowercase letters/);
    const column = within(dialog).getByRole('textbox', { name: 'Column name' });
    expect(column.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(column.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe('Every row has id already');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('shows a name the server refused beside the field; Done with filled-in fields asks before it drops them', async () => {
    fakeTablesApi([{ name: 'orders' }]);
    renderRoute(dataPath);
    await userEvent.click(await screen.findByRole('button', { name: 'New table' }));
    const dialog = screen.getByRole('dialog', { name: 'New table' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Table name' }), 'orders');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove column' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create table' }));
    await within(dialog).findByRole('alert');
    expect(within(dialog).getByRole('alert').textContent).toBe('A table named orders exists');
    expect(within(dialog).getByRole('textbox', { name: 'Table name' }).getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    const question = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    await userEvent.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect((within(dialog).getByRole('textbox', { name: 'Table name' }) as HTMLInputElement).value).toBe('orders');
    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(screen.getByRole('alertdialog', { name: 'Discard your changes?' })).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes an untouched New table dialog with Done at once', async () => {
    fakeTablesApi([]);
    renderRoute(dataPath);
    await userEvent.click(await screen.findByRole('button', { name: 'New table' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'New table' })).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
