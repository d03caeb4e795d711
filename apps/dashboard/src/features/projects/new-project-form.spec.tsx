import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, project, user } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

function api() {
  return fakeApi({
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [] }],
    'GET /v1/subdomains/taken': () => [200, { available: false, reason: 'taken', message: 'Subdomain is already taken' }],
    'GET /v1/subdomains/fresh': () => [200, { available: true, reason: null, message: null }],
    'POST /v1/projects': ({ body }) => [201, { ...project, ...(body as object) }],
    [`GET /v1/projects/${project.id}`]: () => [200, project],
    [`GET /v1/projects/${project.id}/endpoints`]: () => [200, { items: [] }],
  });
}

/** Opens the form, names the project "Shop" and types `keys` (user-event syntax) into the subdomain. */
async function fillNewProject(keys: string) {
  await userEvent.click(await screen.findByRole('button', { name: 'New project' }));
  await userEvent.type(screen.getByRole('textbox', { name: 'Project name' }), 'Shop');
  const subdomain = screen.getByRole('textbox', { name: 'Subdomain' });
  await userEvent.clear(subdomain);
  await userEvent.type(subdomain, keys);
  return subdomain;
}

describe('New project', () => {
  it('reports a taken subdomain beside the field before the form can be sent', async () => {
    api();
    renderRoute('/projects');
    const subdomain = await fillNewProject('taken');
    await waitFor(() => expect(subdomain.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Subdomain is already taken')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Create project' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks once the typing stops, then creates and opens the project', async () => {
    const { calls } = api();
    const { router } = renderRoute('/projects');
    await fillNewProject('fresh');
    await screen.findByText('Available');
    // Debounced: not one request per keystroke (f, fr, fre, …).
    expect(calls.filter((call) => call.path.startsWith('/v1/subdomains/')).map((call) => call.path)).toEqual(['/v1/subdomains/fresh']);
    await userEvent.click(screen.getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${project.id}/endpoints`));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'Shop', subdomain: 'fresh' });
  });

  it('sends the form when Enter comes before the availability answer, once the name is known to be free', async () => {
    const { calls } = api();
    const { router } = renderRoute('/projects');
    await fillNewProject('fresh{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${project.id}/endpoints`));
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ name: 'Shop', subdomain: 'fresh' }]);
  });

  it('does not send a queued Enter when the answer says the name is taken', async () => {
    const { calls } = api();
    renderRoute('/projects');
    await fillNewProject('taken{Enter}');
    expect(await screen.findByText('Subdomain is already taken')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Create project' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
