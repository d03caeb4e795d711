import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, user } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

function api(overrides: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [] }],
    ...overrides,
  });
}

describe('Account menu', () => {
  it('opens from the keyboard, moves with the arrows, and closes with Escape back on its button', async () => {
    api();
    renderRoute('/projects');
    const account = await screen.findByRole('button', { name: 'Account' });
    account.focus();
    await userEvent.keyboard('{ArrowDown}');
    const menu = await screen.findByRole('menu', { name: 'Account' });
    expect(account.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Change password' })));
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Sign out everywhere' }));
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Change password' }));
    await userEvent.keyboard('{Escape}');
    expect(menu.isConnected).toBe(false);
    expect(document.activeElement).toBe(account);
  });

  it('changes the password: checks the fields, shows the server naming a wrong current password, then announces the change', async () => {
    let attempts = 0;
    const { calls } = api({
      'POST /v1/auth/password': () =>
        ++attempts === 1
          ? [400, { success: false, code: 'invalid_request', message: 'The current password is not right', details: [{ path: 'current_password', message: 'is not your current password' }] }]
          : [200, { success: true, message: 'Password changed; every other session has ended' }],
    });
    renderRoute('/projects');
    await userEvent.click(await screen.findByRole('button', { name: 'Account' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    expect(document.activeElement).toBe(screen.getByLabelText('Current password'));

    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Enter your current password.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Current password'), 'old one');
    await userEvent.type(screen.getByLabelText('New password'), 'a much better passphrase');
    await userEvent.type(screen.getByLabelText('Repeat new password'), 'a much better passphrase!');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('The two new passwords differ.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    await userEvent.type(screen.getByLabelText('Repeat new password'), '{Backspace}');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.getByLabelText('Current password').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('is not your current password')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(screen.getByRole('status').textContent).toBe('Password changed; your other sessions were signed out');
    expect(calls.filter((call) => call.method === 'POST').at(-1)).toEqual({ method: 'POST', path: '/v1/auth/password', body: { current_password: 'old one', new_password: 'a much better passphrase' } });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Account' }));
  });

  it('signs out everywhere after a confirmation that starts on Cancel, and lands on the sign-in page', async () => {
    const { calls } = api({ 'POST /v1/auth/logout-all': () => [200, { success: true, message: 'Signed out everywhere' }] });
    const { router } = renderRoute('/projects');
    await userEvent.click(await screen.findByRole('button', { name: 'Account' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Sign out everywhere' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Sign out everywhere?' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(confirm.isConnected).toBe(false);
    expect(calls.some((call) => call.path === '/v1/auth/logout-all')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Sign out everywhere' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.filter((call) => call.path === '/v1/auth/logout-all')).toHaveLength(1);
  });
});
