import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, project, user } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

const key = (name: string, last_used_at: string | null = null) => ({
  id: '33333333-3333-4333-8333-333333333333',
  name,
  last_used_at,
  created_at: new Date(Date.now() - 3 * 3600_000).toISOString(),
  ratelimit_min: 60,
  permission: 'user',
  key_prefix: 'fg_abcd',
});

function api(keys: unknown[]) {
  return fakeApi({
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [project] }],
    [`GET /v1/projects/${project.id}`]: () => [200, project],
    [`GET /v1/projects/${project.id}/api-keys`]: () => [200, { items: keys }],
    [`POST /v1/projects/${project.id}/api-keys`]: ({ body }) => {
      const input = body as { name: string; ratelimit_min: number; permission: string };
      const created = { ...key(input.name), ratelimit_min: input.ratelimit_min, permission: input.permission };
      keys.push(created);
      return [201, { success: true, key: 'fg_secret_shown_once', key_data: created }];
    },
    [`DELETE /v1/projects/${project.id}/api-keys/33333333-3333-4333-8333-333333333333`]: () => {
      keys.length = 0;
      return [200, { success: true, message: 'API key deleted' }];
    },
  });
}

describe('Authentication page', () => {
  it('lists keys with "Never", a relative Created time with the exact time on hover, and a curl example', async () => {
    api([key('ci')]);
    renderRoute(`/projects/${project.id}/keys`);
    const row = await screen.findByRole('row', { name: /ci/ });
    expect(within(row).getByText('Never')).toBeTruthy();
    const created = within(row).getByText('3 hours ago');
    expect(created.getAttribute('title')).toMatch(/\d{4}/);
    expect(screen.getByText(/curl -H "Authorization: Bearer <your key>" http:\/\/shop\.localhost:8080\//)).toBeTruthy();
  });

  it('shows a new secret once in a dialog (Copy key announces Copied, Done) and nowhere after it closes', async () => {
    const { calls } = api([]);
    renderRoute(`/projects/${project.id}/keys`);
    await screen.findByText('No keys yet');
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'deploy bot');
    expect((screen.getByRole('spinbutton', { name: /Rate limit/ }) as HTMLInputElement).value).toBe('60');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Permission' }), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('fg_secret_shown_once')).toBeTruthy();
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith('fg_secret_shown_once');
    expect((await within(dialog).findByRole('status')).textContent).toBe('Copied');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'deploy bot', ratelimit_min: 60, permission: 'admin' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain('fg_secret_shown_once');
    await screen.findByRole('row', { name: /deploy bot/ });
  });

  it('deletes a key only after confirming, and announces it', async () => {
    const { calls } = api([key('old')]);
    renderRoute(`/projects/${project.id}/keys`);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete key old' }));
    const confirm = screen.getByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Delete key old' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Key old deleted'));
    await screen.findByText('No keys yet');
  });

  it('shows a failed load with a Retry that loads again', async () => {
    let fail = true;
    fakeApi({
      'GET /v1/auth/me': () => [200, { user }],
      'GET /v1/projects': () => [200, { items: [project] }],
      [`GET /v1/projects/${project.id}`]: () => [200, project],
      [`GET /v1/projects/${project.id}/api-keys`]: () => (fail ? [500, { success: false, code: 'internal_error', message: 'Database unavailable' }] : [200, { items: [] }]),
    });
    renderRoute(`/projects/${project.id}/keys`);
    expect((await screen.findByRole('alert')).textContent).toContain('Database unavailable');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('No keys yet');
  });
});
