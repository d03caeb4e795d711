/**
 * The dashboard's shell in a real Chromium against the real stack: signing up and out, the
 * return to the route asked for after signing in, a reload keeping the session, not-found pages.
 */
import { randomBytes } from 'node:crypto';
import { request } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';

const { suite, test } = browserSuite();
const password = 'correct horse battery staple';
const email = () => `browser-${randomBytes(5).toString('hex')}@example.test`;

test('a new user signs up, lands on Projects, reloads still signed in, and signs out to /login', async ({ page, consoleErrors }) => {
  await page.goto('/signup');
  await page.getByRole('textbox', { name: 'Email' }).fill(email());
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/projects');
  await page.getByRole('heading', { name: 'Projects' }).waitFor();

  await page.reload();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
  // The session ended on the server too: the old cookie no longer opens a page.
  await page.goto('/projects');
  await page.waitForURL(/\/login\?next=%2Fprojects$/);
  expect(consoleErrors).toEqual([]);
});

test('wrong credentials are refused with an alert and the password keeps focus', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email());
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectText(page.getByRole('alert'), /wrong email or password/i);
  expect(await page.getByLabel('Password').evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true);
});

test('a signed-out visit of a project page returns there after signing in', async ({ page }) => {
  const api = `${suite().stack.controlPlaneUrl}/v1`;
  const address = email();
  const signup = await request(`${api}/auth/signup`, { method: 'POST', body: { email: address, password } });
  const project = await request(`${api}/projects`, {
    method: 'POST',
    token: signup.body.token,
    body: { name: 'Return trip', subdomain: `rt${suite().stack.suffix}${randomBytes(2).toString('hex')}` },
  });
  expect(project.status).toBe(201);

  await page.goto(`/projects/${project.body.id}/settings?tab=1`);
  await page.waitForURL('**/login?next=**');
  await page.getByRole('textbox', { name: 'Email' }).fill(address);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**/projects/${project.body.id}/settings?tab=1`);
  await page.getByRole('combobox', { name: 'Project' }).waitFor();
  expect(await page.getByRole('combobox', { name: 'Project' }).inputValue()).toBe(project.body.id);
});

test('an unknown route and an unknown project show "not found" with a link home', async ({ page }) => {
  await page.goto('/signup');
  await page.getByRole('textbox', { name: 'Email' }).fill(email());
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/projects');

  await page.goto('/no/such/page');
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  expect(await page.title()).toBe('Not found · Flowgate');
  await page.goto('/projects/00000000-0000-4000-8000-000000000000/keys');
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  await page.getByRole('link', { name: 'Go to your projects' }).click();
  await page.waitForURL('**/projects');
});

test('a session ended elsewhere sends the user to sign in at the next request, then back to the page', async ({ page, context }) => {
  const api = `${suite().stack.controlPlaneUrl}/v1`;
  const address = email();
  await request(`${api}/auth/signup`, { method: 'POST', body: { email: address, password } });
  const signin = async () => {
    await page.getByRole('textbox', { name: 'Email' }).fill(address);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  await page.goto('/login');
  await signin();
  await page.waitForURL('**/projects');
  // The page has loaded what it shows (a user acts on a loaded page): the session ends after that.
  await page.getByText('No projects yet').waitFor();

  // Revoke the browser's session on the server (as signing out in another tab would).
  const cookie = (await context.cookies()).find((c) => c.name === 'fg_session');
  expect(cookie?.httpOnly).toBe(true);
  expect((await request(`${api}/auth/logout`, { method: 'POST', token: cookie!.value })).status).toBe(200);

  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByRole('textbox', { name: 'Project name' }).fill('After revoke');
  await page.getByRole('textbox', { name: 'Subdomain' }).fill(`ar${suite().stack.suffix}`);
  await page.waitForURL(/\/login\?next=%2Fprojects$/);
  await signin();
  await page.waitForURL('**/projects');
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
});

async function expectText(locator: import('playwright-core').Locator, pattern: RegExp) {
  await locator.waitFor();
  expect(await locator.textContent()).toMatch(pattern);
}
