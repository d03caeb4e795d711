import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FlowFunction } from '../../api/types';
import { fakeApi, project, user, type Handler } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

const PRICE_ID = 'f1111111-1111-4111-8111-111111111111';
const NEW_ID = 'f2222222-2222-4222-8222-222222222222';

const fn = (id: string, name: string, more: Partial<FlowFunction> = {}): FlowFunction => ({
  id,
  project_id: project.id,
  name,
  description: '',
  inputs: [],
  flow: { nodes: [], edges: [] },
  status: 'draft',
  live_version: null,
  has_undeployed_changes: true,
  created_at: project.created_at,
  updated_at: project.updated_at,
  ...more,
});

const price = fn(PRICE_ID, 'Price with tax', {
  description: 'Adds VAT to an amount',
  inputs: [
    { name: 'amount', type: 'number', required: true },
    { name: 'currency', type: 'string', required: false, default: 'EUR' },
  ],
  status: 'live',
  live_version: 2,
  has_undeployed_changes: false,
});

function functionsApi(items: FlowFunction[], more: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [project] }],
    [`GET /v1/projects/${project.id}`]: () => [200, project],
    [`GET /v1/projects/${project.id}/functions`]: () => [200, { items }],
    ...more,
  });
}

describe('Functions list', () => {
  it('shows each function with its inputs, status and a link to its Workshop', async () => {
    functionsApi([price, fn('f3333333-3333-4333-8333-333333333333', 'Slugify')]);
    renderRoute(`/projects/${project.id}/functions`);
    const row = await screen.findByRole('row', { name: /Price with tax/ });
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Name', 'Inputs', 'Status', 'Updated', 'Actions']);
    expect(within(row).getByText('amount (number), currency (string, optional)')).toBeTruthy();
    expect(within(row).getByText('Adds VAT to an amount')).toBeTruthy();
    expect(within(row).getByText('Live')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Price with tax' }).getAttribute('href')).toBe(`/projects/${project.id}/functions/${PRICE_ID}`);
    expect(within(screen.getByRole('row', { name: /Slugify/ })).getByText('Draft')).toBeTruthy();
  });

  it('New function asks for a name, shows the server’s reason for a taken one, then opens the new function', async () => {
    let taken = true;
    const { calls } = functionsApi([price], {
      [`POST /v1/projects/${project.id}/functions`]: () =>
        taken
          ? [409, { success: false, code: 'conflict', message: 'A function of this project has this name', details: [{ path: 'name', message: 'another function of this project has this name' }] }]
          : [201, fn(NEW_ID, 'Tax rate')],
    });
    const { router } = renderRoute(`/projects/${project.id}/functions`);
    await screen.findByRole('row', { name: /Price with tax/ });
    await userEvent.click(screen.getByRole('button', { name: 'New function' }));
    const dialog = screen.getByRole('dialog', { name: 'New function' });
    expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: 'Function name' }));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create function' }));
    expect(within(dialog).getByText('Give the function a name.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Function name' }), 'Price with tax');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create function' }));
    expect(await within(dialog).findByText('another function of this project has this name')).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/projects/${project.id}/functions`);

    taken = false;
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Function name' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Function name' }), '  Tax rate ');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'The rate for a country');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create function' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${project.id}/functions/${NEW_ID}`));
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.body).toMatchObject({ name: 'Tax rate', description: 'The rate for a country', inputs: [] });
  });

  it('a function still called by live flows is kept, and the dialog says which flows call it', async () => {
    functionsApi([price], {
      [`DELETE /v1/projects/${project.id}/functions/${PRICE_ID}`]: () => [409, { success: false, code: 'function_in_use', message: 'Called by the live endpoint GET /checkout' }],
    });
    renderRoute(`/projects/${project.id}/functions`);
    const row = await screen.findByRole('row', { name: /Price with tax/ });
    await userEvent.click(within(row).getByRole('button', { name: 'Delete function Price with tax' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete function Price with tax?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    const alert = await within(confirm).findByRole('alert');
    expect(alert.textContent).toContain('It is still in use, so it was not deleted.');
    expect(alert.textContent).toContain('Called by the live endpoint GET /checkout');
    // One explanation, not the raw message twice.
    expect(within(confirm).getAllByRole('alert')).toHaveLength(1);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('row', { name: /Price with tax/ })).toBeTruthy();
  });
});
