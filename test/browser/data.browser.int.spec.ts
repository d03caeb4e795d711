/**
 * Data tables through the dashboard against the real stack: a table made with the column editor,
 * rows added on its page, an Insert Row → Respond flow built in the Workshop and deployed, the
 * gateway called, and the row it wrote seen on the Data page; then the page with the keyboard
 * alone. Screenshots of every state, light and dark, go to .cache/browser-screenshots/data-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { request, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { tabTo } from './support/keyboard';
import { SCREENSHOT_DIR } from './support/session';
import { addFromPool, newEndpoint, node, settings, signedInProject, textOf } from './support/workshop-steps';

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

test('a table made on the Data page is written by a deployed Insert Row flow, and the new row shows there', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  const { projectId, subdomain } = await signedInProject(page, stack);

  await page.goto(`/projects/${projectId}/endpoints`);
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Data' }).click();
  await page.getByRole('heading', { name: 'Data' }).waitFor();
  await page.getByText('No tables yet').waitFor();
  await screenshots(page, 'empty');

  // New table: orders (customer text required, total number indexed, paid boolean).
  await page.getByRole('button', { name: 'New table' }).click();
  const create = page.getByRole('dialog', { name: 'New table' });
  await create.getByRole('textbox', { name: 'Table name' }).fill('orders');
  await create.getByRole('textbox', { name: 'Column name' }).fill('customer');
  await create.getByRole('checkbox', { name: 'Required' }).check();
  await create.getByRole('button', { name: 'Add column' }).click();
  const second = create.getByRole('group').nth(1);
  await second.getByRole('textbox', { name: 'Column name' }).fill('total');
  await second.getByRole('combobox', { name: 'Type' }).selectOption('number');
  await second.getByRole('checkbox', { name: 'Indexed' }).check();
  await create.getByRole('button', { name: 'Add column' }).click();
  const third = create.getByRole('group').nth(2);
  await third.getByRole('textbox', { name: 'Column name' }).fill('paid');
  await third.getByRole('combobox', { name: 'Type' }).selectOption('boolean');
  await screenshots(page, 'new-table');
  await create.getByRole('button', { name: 'Create table' }).click();
  await page.waitForURL(/\/data\/[^/]+$/);
  const tablePath = new URL(page.url()).pathname;
  await page.getByRole('heading', { name: 'orders' }).waitFor();

  // Two rows through Add row.
  for (const [customer, total] of [
    ['Ada', '12.5'],
    ['Grace', '40'],
  ] as const) {
    await page.getByRole('button', { name: 'Add row' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add row' });
    await dialog.getByRole('textbox', { name: 'customer' }).fill(customer);
    await dialog.getByRole('spinbutton', { name: 'total' }).fill(total);
    await dialog.getByRole('combobox', { name: 'paid' }).selectOption('true');
    if (customer === 'Grace') await screenshots(page, 'add-row');
    await dialog.getByRole('button', { name: 'Save row' }).click();
    await dialog.waitFor({ state: 'detached' });
    await dataRows(page).filter({ hasText: customer }).waitFor();
  }
  expect(await page.getByRole('columnheader').allTextContents()).toEqual(['id', 'customer', 'total', 'paid', 'created_at', 'updated_at', 'Actions']);
  await screenshots(page, 'table');

  // Insert Row → Respond: POST /orders writes the body's customer and total, answers the new row's id.
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  const form = settings(page);
  await form.getByRole('combobox', { name: 'Method' }).selectOption('POST');
  await form.getByRole('textbox', { name: 'Path' }).fill('/orders');
  await node(page, 'POST /orders').waitFor();
  await addFromPool(page, 'Insert Row');
  expect(await page.getByRole('complementary', { name: 'Action pool' }).getByRole('region', { name: 'Tables' }).getByRole('button').allTextContents()).toHaveLength(5);
  const table = form.getByRole('combobox', { name: 'Table' });
  expect(await table.locator('option').allTextContents()).toContain('orders');
  await table.selectOption('orders');
  await typeTemplate(form.getByRole('textbox', { name: 'customer' }), '{body.customer}');
  await typeTemplate(form.getByRole('textbox', { name: 'total' }), '{body.total}');
  await screenshots(page, 'workshop-insert-row');
  const ref = await form.getByRole('textbox', { name: 'Reference Variable' }).inputValue();
  await addFromPool(page, 'Respond');
  await form.getByRole('button', { name: 'Add entry' }).click();
  await form.getByRole('textbox', { name: 'Key' }).fill('id');
  await typeTemplate(form.getByRole('textbox', { name: 'Value' }), `{result.${ref}.id}`);
  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
  // The Problems list is compiled 250 ms after the last edit; the Deploy can come back sooner.
  await page.getByRole('region', { name: 'Problems' }).getByText('No problems').waitFor();

  const host = `${subdomain}.localhost:${stack.gatewayPort}`;
  const answer = await waitFor(async () => {
    const response = await request(`${stack.gatewayUrl}/orders`, { method: 'POST', host, body: { customer: 'Hopper', total: 7 } });
    return response.status === 200 ? response : undefined;
  }, 'the gateway to store the order', 20_000, 100);
  expect(answer?.status).toBe(200);
  const rowId = answer!.body.id as string;
  expect(rowId).toMatch(/^[0-9a-f-]{36}$/);

  await page.goto(tablePath);
  const written = dataRows(page).filter({ hasText: 'Hopper' });
  await written.waitFor();
  expect(await written.textContent()).toContain(rowId);
  expect(await dataRows(page).count()).toBe(3);
  await page.getByText('3 rows · 3 columns').waitFor();

  // Edit columns (a rename the live flow does not stop: it names customer and total, not paid).
  await page.getByRole('button', { name: 'Edit columns' }).click();
  const columns = page.getByRole('dialog', { name: 'Edit columns' });
  await columns.getByRole('group').nth(2).getByRole('textbox', { name: 'Column name' }).fill('settled');
  await screenshots(page, 'edit-columns');
  await columns.getByRole('button', { name: 'Save columns' }).click();
  await columns.waitFor({ state: 'detached' });
  await page.getByRole('columnheader', { name: 'settled' }).waitFor();

  // Delete table names the live endpoint that uses it.
  await page.getByRole('button', { name: 'Delete table' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete table orders?' });
  await confirm.getByText(/Live endpoints use it/).waitFor();
  expect(await confirm.textContent()).toContain('POST /orders');
  await screenshots(page, 'delete-table');
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`/projects/${projectId}/data`);
  await page.getByRole('row', { name: /orders/ }).getByText('3', { exact: true }).waitFor();
  await screenshots(page, 'list');

  // Query Rows: the filter's and the sort's columns come from the chosen table.
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Query Rows');
  await form.getByRole('combobox', { name: 'Table' }).selectOption('orders');
  await form.getByRole('button', { name: 'Add to Filter' }).click();
  const filter = form.getByRole('group', { name: 'Filter' });
  expect(await filter.getByRole('combobox', { name: 'Column' }).locator('option').allTextContents()).toEqual(['Choose a column', 'customer', 'total', 'settled', 'id', 'created_at', 'updated_at']);
  await filter.getByRole('combobox', { name: 'Column' }).selectOption('total');
  await filter.getByRole('combobox', { name: 'Operator' }).selectOption('gte');
  await typeTemplate(filter.getByRole('textbox', { name: 'Value' }), '10');
  await form.getByRole('group', { name: 'Sort' }).getByRole('combobox', { name: 'Column' }).selectOption('created_at');
  await form.getByRole('group', { name: 'Sort' }).getByRole('combobox', { name: 'Direction' }).selectOption('desc');
  expect(await filter.getByRole('textbox', { name: 'Value' }).textContent()).toBe('10');
  await screenshots(page, 'workshop-query-rows');
  expect(consoleErrors).toEqual([]);
}, 300_000);

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

/** Types a template into a CodeMirror field, closing the completion list it opens. */
async function typeTemplate(field: ReturnType<Page['getByRole']>, text: string): Promise<void> {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Delete');
  await field.pressSequentially(text.replace(/\}$/, ''));
  await field.press('Escape');
  // The completion closes the brace when it is picked; typed by hand, it is added here.
  if (text.endsWith('}') && (await field.textContent())?.endsWith('}') !== true) await field.pressSequentially('}');
}
