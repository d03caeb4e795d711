/**
 * A new user's path through the pages, in a real Chromium against the real stack:
 * sign up → project (subdomain checked while typing) → key created, shown once, listed, deleted
 * → endpoint list (New endpoint, delete) → settings saved and kept after a reload.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/browser-test';
import { signedInProject } from './support/workshop-steps';

const { suite, test } = browserSuite();

async function signUp(page: Page) {
  await page.goto('/signup');
  await page.getByRole('textbox', { name: 'Email' }).fill(`pages-${randomBytes(5).toString('hex')}@example.test`);
  await page.getByLabel('Password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/projects');
}

const status = (page: Page) => page.getByRole('status');

test('sign up, create a project, a key shown once then deleted, an endpoint, and settings kept after a reload', async ({ page, consoleErrors }) => {
  await signUp(page);
  const subdomain = `pg${suite().stack.suffix}`;

  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByRole('textbox', { name: 'Project name' }).fill('Browser shop');
  const subdomainBox = page.getByRole('textbox', { name: 'Subdomain' });
  await subdomainBox.fill('admin');
  await page.getByText('Subdomain is reserved').waitFor();
  expect(await subdomainBox.getAttribute('aria-invalid')).toBe('true');
  expect(await page.getByRole('button', { name: 'Create project' }).isDisabled()).toBe(true);
  await subdomainBox.fill(subdomain);
  await page.getByText('Available').waitFor();
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.waitForURL(/\/projects\/[0-9a-f-]+\/endpoints$/);
  const projectUrl = page.url().replace(/\/endpoints$/, '');
  await page.getByRole('navigation').getByRole('link', { name: 'Authentication' }).click();

  // A key: created, its secret shown once, listed, then deleted after confirmation.
  await page.getByRole('textbox', { name: 'Name' }).fill('ci key');
  expect(await page.getByRole('spinbutton', { name: 'Rate limit' }).inputValue()).toBe('60');
  await page.getByRole('combobox', { name: 'Permission' }).selectOption('admin');
  await page.getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Copy key' }).waitFor();
  const secret = (await dialog.getByLabel('API key').textContent())!.trim();
  expect(secret).toMatch(/^fg_/);
  expect(await dialog.textContent()).toMatch(/will not be shown again/);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await page.content()).not.toContain(secret);
  const row = page.getByRole('row', { name: /ci key/ });
  expect(await row.textContent()).toMatch(/60\/min.*admin.*Never.*just now/);
  await page.getByRole('button', { name: 'Delete key ci key' }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await status(page).getByText('Key ci key deleted').waitFor();
  await page.getByText('No keys yet').waitFor();
  expect(await page.getByText(`http://${subdomain}.localhost:${suite().stack.gatewayPort}/your-endpoint`).count()).toBe(1);

  // Endpoint list: New endpoint opens the Workshop route of a draft at /endpoint-1.
  await page.getByRole('link', { name: 'Workshop' }).click();
  await page.getByText('No endpoints yet').waitFor();
  await page.getByRole('button', { name: 'New endpoint' }).click();
  await page.waitForURL(/\/endpoints\/[0-9a-f-]+$/);
  await page.goBack();
  const endpointRow = page.getByRole('row', { name: /Endpoint 1/ });
  expect(await endpointRow.textContent()).toMatch(/GET\s*\/endpoint-1\s*Draft/);
  await page.getByRole('button', { name: 'Delete endpoint Endpoint 1' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await status(page).getByText('Endpoint Endpoint 1 deleted').waitFor();

  // Settings: saved, announced, kept after a reload; the secret is only shown masked.
  await page.goto(`${projectUrl}/settings`);
  await page.getByRole('textbox', { name: 'Project Name' }).fill('Browser shop renamed');
  await page.getByRole('switch', { name: 'Require Authentication' }).check();
  const text = page.getByRole('group', { name: 'Text generation' });
  await text.getByLabel('API key').fill('sk-ant-test-abcd1234');
  const email = page.getByRole('group', { name: 'Email' });
  await email.getByLabel('API key').fill('SG.test-key-wxyz');
  await email.getByRole('textbox', { name: 'Verified domains' }).fill('example.com, mail.example.org');
  await page.getByRole('button', { name: 'Save' }).click();
  await status(page).getByText('Settings saved').waitFor();

  await page.reload();
  await page.getByRole('textbox', { name: 'Project Name' }).waitFor();
  expect(await page.getByRole('textbox', { name: 'Project Name' }).inputValue()).toBe('Browser shop renamed');
  expect(await page.getByRole('switch', { name: 'Require Authentication' }).isChecked()).toBe(true);
  expect(await text.getByLabel('API key').inputValue()).toBe('');
  expect(await text.textContent()).toContain('1234');
  expect(await text.textContent()).not.toContain('sk-ant-test');
  expect(await email.getByRole('textbox', { name: 'Verified domains' }).inputValue()).toBe('example.com, mail.example.org');
  expect(await page.getByRole('combobox', { name: 'Project' }).textContent()).toContain('Browser shop renamed');

  // A failed save keeps the values and marks the field that is wrong.
  await email.getByRole('textbox', { name: 'Verified domains' }).fill('not a domain');
  await page.getByRole('button', { name: 'Save' }).click();
  const domains = email.getByRole('textbox', { name: 'Verified domains' });
  await page.locator('[aria-invalid="true"]').first().waitFor();
  expect(await domains.getAttribute('aria-invalid')).toBe('true');
  expect(await domains.inputValue()).toBe('not a domain');

  expect(consoleErrors.filter((line) => !/status of 400/.test(line))).toEqual([]);
});

test('Delete project asks for the name, then the project is gone', async ({ page }) => {
  await signUp(page);
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByRole('textbox', { name: 'Project name' }).fill('Short lived');
  await page.getByRole('textbox', { name: 'Subdomain' }).fill(`sl${suite().stack.suffix}`);
  await page.getByText('Available').waitFor();
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.waitForURL(/\/endpoints$/);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Delete project' }).click();
  const confirm = page.getByRole('alertdialog');
  const deleteButton = confirm.getByRole('button', { name: 'Delete' });
  expect(await deleteButton.isDisabled()).toBe(true);
  await confirm.getByRole('textbox', { name: 'Project name' }).fill('Short lived');
  await deleteButton.click();
  await page.waitForURL('**/projects');
  await page.getByText('No projects yet').waitFor();
});

test('a Skip to content link comes first; focus returns to the opener after a dialog; a missing endpoint is Not found; Settings asks before dropping edits', async ({ page }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await page.goto(`/projects/${projectId}/keys`);
  await page.getByRole('heading', { name: 'Authentication' }).waitFor();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
  await page.keyboard.press('Enter');
  // The next Tab is inside the page, past the header and the project menu.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('#content') !== null && document.activeElement?.closest('nav') === null)).toBe(true);

  // A key's dialog: its opener (Add) is disabled once the form is reset, so focus goes to the page, not <body>.
  await page.getByRole('textbox', { name: 'Name' }).fill('focus key');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');

  await page.goto(`/projects/${projectId}/settings`);
  const addSecret = page.getByRole('button', { name: 'Add secret' });
  await addSecret.click();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  expect(await addSecret.evaluate((element) => element === document.activeElement)).toBe(true);

  await page.goto(`/projects/${projectId}/endpoints/00000000-0000-4000-8000-000000000000`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);

  await page.goto(`/projects/${projectId}/settings`);
  await page.getByRole('textbox', { name: 'Project Name' }).fill('Renamed but not saved');
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Logs' }).click();
  const question = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await question.getByRole('button', { name: 'Stay' }).click();
  expect(await page.getByRole('textbox', { name: 'Project Name' }).inputValue()).toBe('Renamed but not saved');
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Logs' }).click();
  await question.getByRole('button', { name: 'Leave' }).click();
  await page.waitForURL(/\/logs/);
});
