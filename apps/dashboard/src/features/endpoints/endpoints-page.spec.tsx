import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, project, user } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

const endpoint = (id: string, name: string, path: string, status: 'draft' | 'live', changed: boolean) => ({
  id,
  project_id: project.id,
  name,
  method: 'GET',
  path,
  auth: 'none',
  query_params: [],
  flow: { nodes: [], edges: [] },
  status,
  live_version: status === 'live' ? 1 : null,
  live_url: status === 'live' ? `${project.base_url}${path}` : null,
  has_undeployed_changes: changed,
  created_at: project.created_at,
  updated_at: project.updated_at,
});

const NEW_ID = '44444444-4444-4444-8444-444444444444';

describe('Endpoint list', () => {
  it('shows Live, Draft and "Live · changes not deployed" with the live URL', async () => {
    fakeApi({
      'GET /v1/auth/me': () => [200, { user }],
      'GET /v1/projects': () => [200, { items: [project] }],
      [`GET /v1/projects/${project.id}`]: () => [200, project],
      [`GET /v1/projects/${project.id}/endpoints`]: () => [
        200,
        {
          items: [
            endpoint('a1111111-1111-4111-8111-111111111111', 'Hello', '/hello', 'live', false),
            endpoint('b1111111-1111-4111-8111-111111111111', 'Orders', '/orders', 'live', true),
            endpoint('c1111111-1111-4111-8111-111111111111', 'Sketch', '/endpoint-1', 'draft', true),
          ],
        },
      ],
    });
    renderRoute(`/projects/${project.id}/endpoints`);
    const hello = await screen.findByRole('row', { name: /Hello/ });
    expect(within(hello).getByText('Live')).toBeTruthy();
    expect(within(hello).getByRole('link', { name: 'http://shop.localhost:8080/hello' })).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /Orders/ })).getByText('Live · changes not deployed')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /Sketch/ })).getByText('Draft')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /Hello/ })).getByRole('link', { name: 'Hello' }).getAttribute('href')).toBe(
      `/projects/${project.id}/endpoints/a1111111-1111-4111-8111-111111111111`,
    );
  });

  it('New endpoint creates a draft GET at the first free /endpoint-N with a start block, then opens the Workshop', async () => {
    const { calls } = fakeApi({
      'GET /v1/auth/me': () => [200, { user }],
      'GET /v1/projects': () => [200, { items: [project] }],
      [`GET /v1/projects/${project.id}`]: () => [200, project],
      [`GET /v1/projects/${project.id}/endpoints`]: () => [200, { items: [endpoint('c1111111-1111-4111-8111-111111111111', 'Sketch', '/endpoint-1', 'draft', true)] }],
      [`POST /v1/projects/${project.id}/endpoints`]: () => [201, { ...endpoint(NEW_ID, 'Endpoint 2', '/endpoint-2', 'draft', true), diagnostics: [] }],
    });
    const { router } = renderRoute(`/projects/${project.id}/endpoints`);
    await screen.findByRole('row', { name: /Sketch/ });
    await userEvent.click(screen.getByRole('button', { name: 'New endpoint' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${project.id}/endpoints/${NEW_ID}`));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Endpoint 2',
      method: 'GET',
      path: '/endpoint-2',
      auth: 'none',
      query_params: [],
      flow: { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] },
    });
  });
});
