import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, project, user } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

const exported = {
  flowgate_export: 1,
  endpoint: { name: 'Orders', method: 'GET', path: '/orders', auth: 'none', query_params: [], flow: { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] } },
};
const created = {
  id: '44444444-4444-4444-8444-444444444444',
  project_id: project.id,
  ...exported.endpoint,
  status: 'draft',
  live_version: null,
  live_url: null,
  has_undeployed_changes: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  diagnostics: [],
};

function api(answer: () => [number, unknown]) {
  return fakeApi({
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [project] }],
    [`GET /v1/projects/${project.id}`]: () => [200, project],
    [`GET /v1/projects/${project.id}/endpoints`]: () => [200, { items: [] }],
    [`POST /v1/projects/${project.id}/endpoints/import`]: answer,
  });
}

const file = (text: string, name = 'orders.flowgate.json') => new File([text], name, { type: 'application/json' });

describe('Import on the endpoint list', () => {
  it('sends the chosen file to the import API and opens the new draft in the Workshop', async () => {
    const { calls } = api(() => [201, created]);
    const { router } = renderRoute(`/projects/${project.id}/endpoints`);
    await screen.findByText('No endpoints yet');
    expect(screen.getByRole('button', { name: 'Import' })).toBeTruthy();
    await userEvent.upload(screen.getByLabelText('Endpoint file to import'), file(JSON.stringify(exported)));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${project.id}/endpoints/${created.id}`));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual(exported);
  });

  it('shows why a file was refused: the message and each field the server names', async () => {
    api(() => [400, { success: false, code: 'invalid_request', message: 'The request is not valid', details: [{ path: 'endpoint.flow.nodes.1.type', message: '"run_shell" is not a block type' }] }]);
    renderRoute(`/projects/${project.id}/endpoints`);
    await screen.findByText('No endpoints yet');
    await userEvent.upload(screen.getByLabelText('Endpoint file to import'), file(JSON.stringify(exported)));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The file was not imported');
    expect(within(alert).getByText('endpoint.flow.nodes.1.type')).toBeTruthy();
    expect(within(alert).getByText(/run_shell/)).toBeTruthy();
  });

  it('says a file that is not JSON cannot be imported, without calling the API', async () => {
    const { calls } = api(() => [201, created]);
    renderRoute(`/projects/${project.id}/endpoints`);
    await screen.findByText('No endpoints yet');
    await userEvent.upload(screen.getByLabelText('Endpoint file to import'), file('not json', 'notes.json'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/notes\.json is not a JSON file/);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
