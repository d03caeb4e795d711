import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, project, user } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

const textIntegration = {
  kind: 'text-generation',
  provider: 'anthropic',
  api_key_masked: '••••abcd',
  default_model: null,
  created_at: project.created_at,
  updated_at: project.updated_at,
};

function api(overrides: Parameters<typeof fakeApi>[0] = {}) {
  let current = { ...project };
  return fakeApi({
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [current] }],
    [`GET /v1/projects/${project.id}`]: () => [200, current],
    [`PATCH /v1/projects/${project.id}`]: ({ body }) => {
      current = { ...current, ...(body as object) };
      return [200, current];
    },
    [`GET /v1/projects/${project.id}/integrations`]: () => [200, { items: [textIntegration] }],
    [`PUT /v1/projects/${project.id}/integrations/email`]: () => [
      400,
      { success: false, code: 'invalid_request', message: 'Invalid body', details: [{ path: 'verified_domains.0', message: 'must be a domain name such as example.com' }] },
    ],
    'GET /v1/subdomains/new-home': () => [200, { available: true, reason: null, message: null }],
    ...overrides,
  });
}

describe('Settings page', () => {
  it('shows a saved secret only masked, and sends only what changed', async () => {
    const { calls } = api();
    renderRoute(`/projects/${project.id}/settings`);
    const text = await screen.findByRole('group', { name: 'Text generation' });
    expect((within(text).getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect(text.textContent).toContain('••••abcd');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Project Name' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Project Name' }), 'Renamed');
    await userEvent.click(screen.getByRole('switch', { name: 'Require Authentication' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Settings saved'));
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([
      { method: 'PATCH', path: `/v1/projects/${project.id}`, body: { name: 'Renamed', require_auth: true } },
    ]);
  });

  it('warns that a new subdomain breaks clients of the old address', async () => {
    api();
    renderRoute(`/projects/${project.id}/settings`);
    const subdomain = await screen.findByRole('textbox', { name: 'Subdomain' });
    await userEvent.clear(subdomain);
    await userEvent.type(subdomain, 'new-home');
    expect(screen.getByText(/will break/).textContent).toContain('http://shop.localhost:8080');
    await screen.findByText('Available');
  });

  it('marks the field a failed save concerns and keeps what the user typed', async () => {
    api();
    renderRoute(`/projects/${project.id}/settings`);
    const email = await screen.findByRole('group', { name: 'Email' });
    await userEvent.type(within(email).getByLabelText('API key'), 'SG.key');
    await userEvent.type(within(email).getByRole('textbox', { name: 'Verified domains' }), 'not a domain');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const domains = within(email).getByRole('textbox', { name: 'Verified domains' }) as HTMLInputElement;
    await waitFor(() => expect(domains.getAttribute('aria-invalid')).toBe('true'));
    expect(domains.value).toBe('not a domain');
    expect((within(email).getByLabelText('API key') as HTMLInputElement).value).toBe('SG.key');
    expect(screen.getByText(/must be a domain name/)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
