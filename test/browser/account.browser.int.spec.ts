/**
 * The header's Account menu in a real Chromium against the real stack: changing the password
 * ends the account's other sessions and keeps this one; signing out everywhere ends them all.
 */
import { randomBytes } from 'node:crypto';
import { request } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';

const { suite, test } = browserSuite();
const password = 'correct horse battery staple';
const newPassword = 'another long river of words';

test('a user changes the password from the keyboard, then signs out everywhere with the mouse', async ({ page, context, consoleErrors }) => {
  const api = `${suite().stack.controlPlaneUrl}/v1`;
  const email = `account-${randomBytes(5).toString('hex')}@example.test`;
  await page.goto('/signup');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/projects');
  const elsewhere = (await request(`${api}/auth/login`, { method: 'POST', body: { email, password } })).body.token as string;

  // Keyboard: focus the menu button, open with the arrow key, choose with Enter.
  await page.getByRole('button', { name: 'Account' }).focus();
  await page.keyboard.press('ArrowDown');
  await page.getByRole('menu', { name: 'Account' }).waitFor();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await dialog.waitFor();
  await page.keyboard.type(password);
  await page.keyboard.press('Tab');
  await page.keyboard.type(newPassword);
  await page.keyboard.press('Tab');
  await page.keyboard.type(newPassword);
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();

  // The other session ended; this one goes on (a reload stays signed in); the new password logs in.
  expect((await request(`${api}/auth/me`, { token: elsewhere })).status).toBe(401);
  await page.reload();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  expect((await request(`${api}/auth/login`, { method: 'POST', body: { email, password } })).status).toBe(401);
  const another = (await request(`${api}/auth/login`, { method: 'POST', body: { email, password: newPassword } })).body.token as string;

  // Mouse: Sign out everywhere, confirmed in its alert dialog.
  const cookie = (await context.cookies()).find((c) => c.name === 'fg_session')!.value;
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
  await page.getByRole('alertdialog', { name: 'Sign out everywhere?' }).getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.waitForURL('**/login');
  for (const token of [cookie, another]) expect((await request(`${api}/auth/me`, { token })).status).toBe(401);
  expect(consoleErrors).toEqual([]);
});
