/**
 * Data tables through the dashboard against the real stack: CSV in and out with pages of rows,
 * and the page with the keyboard alone. Screenshots, light and dark, go to
 * .cache/browser-screenshots/data-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { request } from '../e2e/stack-process';
import { browserSuite } from './support/browser-test';
import { tabTo } from './support/keyboard';
import { SCREENSHOT_DIR } from './support/session';
import { signedInProject, textOf } from './support/workshop-steps';

const { suite, test } = browserSuite();

async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `data-${name}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const dataRows = (page: Page) => page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Edit row' }) });

test('CSV: import adds rows and reports a bad line, export gives them back', async ({ page }) => {
  const { stack } = suite();
  const { projectId, token } = await signedInProject(page, stack);
  const created = await request(`${stack.controlPlaneUrl}/v1/projects/${projectId}/tables`, {
    method: 'POST',
    token,
    body: { name: 'people', columns: [{ name: 'name', type: 'text' }, { name: 'age', type: 'number' }] },
  });
  expect(created.status).toBe(201);
  await page.goto(`/projects/${projectId}/data/${created.body.id}`);
  await page.getByText('No rows yet').waitFor();

  const rows = Array.from({ length: 55 }, (_, index) => `person ${index + 1},${20 + index}`);
  await page.getByLabel('Import CSV').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(`name,age\n${rows.join('\n')}\n`) });
  await page.getByRole('status').getByText('Imported 55 rows from people.csv').waitFor();
  await dataRows(page).nth(49).waitFor();
  expect(await dataRows(page).count()).toBe(50);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 5);
  await page.getByRole('button', { name: 'Back' }).click();
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 50);

  await page.getByLabel('Import CSV').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('name,age\nok,1\nnope,old\n') });
  const problem = await textOf(page.getByRole('alert'));
  expect(problem).toMatch(/^bad\.csv was not imported: .*Line 3/);
  await screenshots(page, 'import-error');
  await page.getByText('55 rows · 2 columns').waitFor();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const text = readFileSync(file, 'utf8');
  expect(text.split(/\r?\n/)[0]).toMatch(/name,age/);
  expect(text).toContain('person 55,74');
});

test('the Data page with the keyboard alone: create a table, add a row, delete it', async ({ page, consoleErrors }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await page.goto(`/projects/${projectId}/data`);
  await page.getByText('No tables yet').waitFor();

  await tabTo(page, 'button', 'New table');
  await page.keyboard.press('Enter');
  // The dialog opens on Table name.
  await page.keyboard.type('notes');
  await tabTo(page, 'textbox', 'Column name');
  await page.keyboard.type('body');
  await tabTo(page, 'checkbox', 'Required');
  await page.keyboard.press('Space');
  await tabTo(page, 'button', 'Create table');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/data\/[^/]+$/);
  await page.getByRole('heading', { name: 'notes' }).waitFor();

  await tabTo(page, 'button', 'Add row');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Add row' }).waitFor();
  await page.keyboard.type('typed with keys');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await dataRows(page).filter({ hasText: 'typed with keys' }).waitFor();

  await tabTo(page, 'button', 'Delete row');
  await page.keyboard.press('Enter');
  await page.getByRole('alertdialog').waitFor();
  // Focus starts on Cancel; Tab reaches Delete.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByText('No rows yet').waitFor();

  await tabTo(page, 'button', 'Delete table');
  await page.keyboard.press('Enter');
  // The confirmation opens on the name to type.
  await page.keyboard.type('notes');
  await tabTo(page, 'button', 'Delete');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/data$/);
  await page.getByText('No tables yet').waitFor();
  expect(consoleErrors).toEqual([]);
});
