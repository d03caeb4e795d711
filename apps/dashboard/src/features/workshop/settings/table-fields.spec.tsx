/** @jest-environment jsdom */
import '../../../testing/jsdom-globals';
import '@testing-library/jest-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../../../api/query-client';
import type { DataTable } from '../../../api/types';
import { fakeApi, project } from '../../../testing/fake-api';
import { ProblemsPanel } from '../diagnostics/problems-panel';
import { useLiveDiagnostics } from '../diagnostics/use-live-diagnostics';
import type { WorkshopDoc } from '../model/workshop-document';
import { ActionPool } from '../pool/action-pool';
import { WorkshopStoreContext } from '../store/workshop-context';
import { createWorkshopStore } from '../store/workshop-store';
import { SettingsPanel } from './settings-panel';

const at = { x: 0, y: 0 };
const orders: DataTable = {
  id: '00000000-0000-7000-8000-000000000001',
  name: 'orders',
  columns: [
    { name: 'customer', type: 'text', required: true, unique: false, indexed: false },
    { name: 'total', type: 'number', required: false, unique: false, indexed: true },
  ],
  row_count: 0,
  created_at: '2026-11-24T00:00:00.000Z',
  updated_at: '2026-11-24T00:00:00.000Z',
};

function setup(nodes: WorkshopDoc['nodes'], selected: string, tables = [orders]) {
  fakeApi({ [`GET /v1/projects/${project.id}/tables`]: () => [200, { items: tables }] });
  const store = createWorkshopStore(
    { settings: { kind: 'endpoint', name: 'Orders', method: 'POST', path: '/orders', auth: 'none', query_params: [] }, nodes: [{ id: 'start', type: 'start', position: at }, ...nodes], edges: [] },
    () => 0,
  );
  store.getState().select([selected]);
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  const context = { tables };
  function LiveProblems() {
    useLiveDiagnostics(context);
    return <ProblemsPanel />;
  }
  const Workshop = () => (
    <WorkshopStoreContext.Provider value={store}>
      <ActionPool searchRef={createRef()} />
      <SettingsPanel />
      <LiveProblems />
    </WorkshopStoreContext.Provider>
  );
  const router = createMemoryRouter([{ path: '/projects/:projectId/endpoints/:endpointId', element: <Workshop /> }], { initialEntries: [`/projects/${project.id}/endpoints/e1`] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const panel = screen.getByRole('complementary', { name: 'Block settings' });
  const config = (id: string) => store.getState().doc.nodes.find((node) => node.id === id)?.config;
  return { store, panel, config, user: userEvent.setup() };
}

describe('table blocks in the Workshop', () => {
  it('lists the five table blocks under Tables in the pool', () => {
    setup([], 'start');
    const group = screen.getByRole('region', { name: 'Tables' });
    expect(within(group).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Query Rows', 'Get Row', 'Insert Row', 'Update Rows', 'Delete Rows']);
  });

  it("Insert Row: Table lists the project's tables, then one value field per column of the chosen one", async () => {
    const { store, panel, config, user } = setup([], 'start');
    await user.dblClick(screen.getByRole('button', { name: 'Insert Row' }));
    const id = store.getState().doc.nodes[1]!.id;
    expect(config(id)).toMatchObject({ values: {} });
    const table = within(panel).getByRole('combobox', { name: 'Table' });
    await waitFor(() => expect(within(table).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a table', 'orders']));
    await user.selectOptions(table, 'orders');
    expect(config(id)).toMatchObject({ table: 'orders' });

    const customer = within(panel).getByRole('textbox', { name: 'customer' });
    await user.click(customer);
    await user.keyboard('Ada');
    const total = within(panel).getByRole('textbox', { name: 'total' });
    await user.click(total);
    await user.keyboard('42');
    expect(config(id)?.values).toEqual({ customer: 'Ada', total: 42 });
  });

  it('Query Rows: filter and sort columns offer the chosen table’s columns and the ones every row has', async () => {
    const { panel, config, user } = setup([{ id: 'q', type: 'query_rows', position: at, config: { table: 'orders', filter: [], sort: null, limit: 100, ref: 'found' } }], 'q');
    await user.click(within(panel).getByRole('button', { name: 'Add to Filter' }));
    const filter = within(panel).getByRole('group', { name: 'Filter' });
    const column = within(filter).getByRole('combobox', { name: 'Column' });
    await waitFor(() => expect(within(column).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a column', 'customer', 'total', 'id', 'created_at', 'updated_at']));
    await user.selectOptions(column, 'total');
    await user.selectOptions(within(filter).getByRole('combobox', { name: 'Operator' }), 'gt');
    const sort = within(panel).getByRole('group', { name: 'Sort' });
    await user.selectOptions(within(sort).getByRole('combobox', { name: 'Column' }), 'created_at');
    expect(config('q')).toMatchObject({ filter: [{ column: 'total', operator: 'gt' }], sort: { column: 'created_at', direction: 'asc' } });
    await user.selectOptions(within(sort).getByRole('combobox', { name: 'Column' }), 'Choose a column');
    expect(config('q')?.sort).toBeNull();
  });

  it('marks a table the project does not have, in the field and in Problems, as Deploy would', async () => {
    const { panel } = setup([{ id: 'g', type: 'get_row', position: at, config: { table: 'invoices', id: '{body.id}', ref: 'invoice' } }], 'g');
    const table = within(panel).getByRole('combobox', { name: 'Table' });
    await waitFor(() => expect(table).toHaveValue('invoices'));
    expect(within(table).getByRole('option', { name: 'invoices (not found)' })).toBeInTheDocument();
    await waitFor(() => expect(table).toHaveAttribute('aria-invalid', 'true'));
    const problems = screen.getByRole('region', { name: 'Problems' });
    await waitFor(() => expect(problems).toHaveTextContent('the project has no table invoices'));
  });

  it('names values that are not columns of the table, and removes them on request', async () => {
    const { panel, config, user, store } = setup([{ id: 'u', type: 'update_rows', position: at, config: { table: 'orders', filter: [{ column: 'id', operator: 'eq', value: '{body.id}' }], values: { totl: 3 }, ref: 'changed' } }], 'u');
    await within(panel).findByText(/Not columns of orders: totl/);
    await user.click(within(panel).getByRole('button', { name: 'Remove them' }));
    expect(config('u')?.values).toEqual({});
    act(() => store.getState().undo());
    expect(config('u')?.values).toEqual({ totl: 3 });
  });
});
