/**
 * The pages with a keyboard alone: sign up, create a project, create a key and close its
 * dialog, delete it through the confirmation — only Tab, typing, Enter, Space and Escape; the
 * README's hello flow built in the Workshop, saved and deployed the same way; and the endpoint
 * settings' groups (typed query parameters, Webhook signature, Cache, MCP, Body) filled in by
 * Tab in the order they are read, each control named and its focus visible; and the Functions
 * and Schedules lists, their dialogs and their base settings blocks.
 */
import { randomBytes } from 'node:crypto';
import { browserSuite } from './support/browser-test';
import type { Locator, Page } from 'playwright-core';
import { request, waitFor } from '@flowgate/testing';
import { tabTo } from './support/keyboard';
import { chainFlow, openFlow, settings, signedInProject } from './support/workshop-steps';

const { suite, test } = browserSuite();

const focused = (locator: Locator) => waitFor(() => locator.evaluate((element) => element === element.ownerDocument.activeElement), 'the focus on the new row', 10_000, 50);

test('sign up, create a project and a key, and delete it with the keyboard alone', async ({ page, consoleErrors }) => {
  await page.goto('/signup');
  await tabTo(page, 'textbox', 'Email');
  await page.keyboard.type(`keys-${randomBytes(5).toString('hex')}@example.test`);
  await tabTo(page, 'textbox', 'Password');
  await page.keyboard.type('correct horse battery staple');
  await page.keyboard.press('Enter');
  await page.waitForURL('**/projects');

  await tabTo(page, 'button', 'New project');
  await page.keyboard.press('Enter');
  // The form opens with the name focused.
  await page.keyboard.type('Keyboard only');
  await tabTo(page, 'textbox', 'Subdomain');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(`kb${suite().stack.suffix}`);
  await page.getByText('Available').waitFor();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/endpoints$/);

  await tabTo(page, 'link', 'Authentication');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/keys$/);
  await tabTo(page, 'textbox', 'Name');
  await page.keyboard.type('typed key');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.getByRole('row', { name: /typed key/ }).waitFor();

  await tabTo(page, 'button', 'Delete key typed key');
  await page.keyboard.press('Enter');
  await page.getByRole('alertdialog').waitFor();
  // Focus starts on Cancel; Tab reaches Delete.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Key typed key deleted').waitFor();
  expect(consoleErrors).toEqual([]);
});

test('the README\'s hello flow built, saved and deployed in the Workshop with the keyboard alone', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  const { projectId, subdomain } = await signedInProject(page, stack);
  await page.goto(`/projects/${projectId}/endpoints`);
  await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
  await tabTo(page, 'button', 'New endpoint');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/endpoints\/[^/]+$/);
  await page.getByRole('complementary', { name: 'Action pool' }).waitFor();

  // `/` jumps to the pool's search; from there Tab reaches the canvas, where Enter selects a block.
  await page.keyboard.press('/');
  await tabTo(page, 'group', 'GET /endpoint-1', 60);
  await page.keyboard.press('Enter');
  await tabTo(page, 'textbox', 'Endpoint name');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Hello');
  await tabTo(page, 'textbox', 'Path');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('/hello');
  await tabTo(page, 'button', 'Add query parameter');
  await page.keyboard.press('Enter');
  // The new row's first field takes the focus.
  await focused(page.getByRole('textbox', { name: 'Parameter key' }));
  await page.keyboard.type('name');
  await tabTo(page, 'textbox', 'Default value');
  await page.keyboard.type('world');

  /** Adds a block after the selected one: search the pool, Tab to the block, Enter. */
  const add = async (label: string) => {
    await tabTo(page, 'searchbox', 'Search blocks', 60);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(label);
    await tabTo(page, 'button', label);
    await page.keyboard.press('Enter');
    await settings(page).getByRole('heading', { name: new RegExp(`^${label}`) }).waitFor();
  };
  /** Types a reference into a template field (the completion list offers it; `}` steps over the auto-closed brace). */
  const reference = async (before: string, path: string) => {
    await page.keyboard.type(`${before}{`);
    await page.keyboard.type(path);
    await page.getByRole('option', { name: new RegExp(`\\{${path.replace(/\./g, '\\.')}\\}`) }).waitFor();
    await page.keyboard.type('}');
    await page.keyboard.press('Escape');
  };

  await add('Set Variable');
  await tabTo(page, 'textbox', 'Name');
  await page.keyboard.type('greeting');
  await tabTo(page, 'textbox', 'Value');
  await reference('Hello ', 'params.name');
  await add('Manipulate Text');
  await tabTo(page, 'textbox', 'Input Text');
  await reference('', 'local.greeting');
  await tabTo(page, 'textbox', 'Reference Variable');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('loud');
  await add('Respond');
  await tabTo(page, 'button', 'Add entry');
  await page.keyboard.press('Enter');
  await focused(settings(page).getByRole('textbox', { name: 'Key' }));
  await page.keyboard.type('message');
  await tabTo(page, 'textbox', 'Value');
  await reference('', 'result.loud');

  // Both from inside the last field, which keeps its text as typed (no line break from Ctrl+Enter).
  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  await page.keyboard.press('ControlOrMeta+Enter');
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
  const answer = await request(`${stack.gatewayUrl}/hello?name=Ada`, { host: `${subdomain}.localhost:${stack.gatewayPort}` });
  expect(answer).toMatchObject({ status: 200, body: { message: 'HELLO ADA' } });
  expect(consoleErrors).toEqual([]);
}, 240_000);

/** The focused control: its accessible name as a user hears it (role-less), and whether its focus ring shows. */
const focusedControl = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { name: '<body>', visible: false };
    const labelled = element.getAttribute('aria-label') ?? (element as HTMLInputElement).labels?.[0]?.textContent ?? element.textContent ?? '';
    const style = getComputedStyle(element);
    const ring = (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
    return { name: labelled.replace(/[▸▾]/g, '').trim(), visible: element.matches(':focus-visible') && ring };
  });

/** Presses Tab (or Shift+Tab) once and says which control has the focus now. */
async function tab(page: Page, back = false) {
  await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  return focusedControl(page);
}

const isFocused = (locator: Locator) => locator.evaluate((element) => element === element.ownerDocument.activeElement);

/**
 * Tab to the button (its focus ring shows), Enter opens its dialog with the focus on `first`,
 * Escape closes it and the focus is back on the button.
 */
async function escapeGivesFocusBack(page: Page, button: string, dialog: Locator, first: Locator): Promise<void> {
  const opener = page.getByRole('button', { name: button, exact: true });
  await tabTo(page, 'button', button);
  expect(await focusedControl(page)).toEqual({ name: button, visible: true });
  await page.keyboard.press('Enter');
  await focused(first);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await isFocused(opener)).toBe(true);
}

/** Once the Workshop of what was just created opens: its id, and its base settings block selected from the keyboard (`/`, Tab to it, Enter). */
async function openedWithBaseSettings(page: Page, kind: 'functions' | 'schedules', block: string): Promise<string> {
  await page.waitForURL(new RegExp(`/${kind}/[^/]+$`));
  await page.getByRole('complementary', { name: 'Action pool' }).waitFor();
  await page.keyboard.press('/');
  await tabTo(page, 'group', block, 60);
  await page.keyboard.press('Enter');
  return page.url().split('/').pop()!;
}

test('functions and schedules with the keyboard alone: both lists, both dialogs, both base settings', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  const { projectId, token } = await signedInProject(page, stack);
  const api = `${stack.controlPlaneUrl}/v1/projects/${projectId}`;
  await page.goto(`/projects/${projectId}/functions`);
  await page.getByText('No functions yet').waitFor();

  // New function: Escape on an empty dialog closes it and gives the focus back to its button.
  const fnDialog = page.getByRole('dialog', { name: 'New function' });
  await escapeGivesFocusBack(page, 'New function', fnDialog, fnDialog.getByRole('textbox', { name: 'Function name' }));
  // Enter with no name says what is missing; the name typed, Enter creates it.
  await page.keyboard.press('Enter');
  await focused(fnDialog.getByRole('textbox', { name: 'Function name' }));
  await page.keyboard.press('Enter');
  await fnDialog.getByText('Give the function a name.').waitFor();
  await page.keyboard.type('Tax');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Adds the tax to an amount');
  await page.keyboard.press('Enter');
  // The base settings block from the canvas; an input added, typed and required.
  const functionId = await openedWithBaseSettings(page, 'functions', 'Function Tax');
  await tabTo(page, 'textbox', 'Function name');
  await tabTo(page, 'button', 'Add input');
  await page.keyboard.press('Enter');
  await focused(settings(page).getByRole('textbox', { name: 'Input name' }));
  await page.keyboard.type('amount');
  await page.keyboard.press('Tab');
  expect(await isFocused(settings(page).getByRole('combobox', { name: 'Type' }))).toBe(true);
  await page.keyboard.type('number');
  await tabTo(page, 'checkbox', 'Required');
  await page.keyboard.press('Space');
  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  const savedFunction = await request(`${api}/functions/${functionId}`, { token });
  expect(savedFunction.body).toMatchObject({ name: 'Tax', description: 'Adds the tax to an amount', inputs: [{ name: 'amount', type: 'number', required: true }] });

  // The list: the delete confirmation starts on Cancel, Escape closes it, the focus is back on the row's button.
  await page.goto(`/projects/${projectId}/functions`);
  await page.getByRole('row', { name: /Tax/ }).waitFor();
  const confirm = page.getByRole('alertdialog', { name: 'Delete function Tax?' });
  await escapeGivesFocusBack(page, 'Delete function Tax', confirm, confirm.getByRole('button', { name: 'Cancel' }));

  // New schedule: the name, the cron (read back in words), Enter creates it.
  await page.goto(`/projects/${projectId}/schedules`);
  await page.getByText('No schedules yet').waitFor();
  await tabTo(page, 'button', 'New schedule');
  await page.keyboard.press('Enter');
  const scheduleDialog = page.getByRole('dialog', { name: 'New schedule' });
  await focused(scheduleDialog.getByRole('textbox', { name: 'Schedule name' }));
  // With something typed, Escape asks first; Keep editing keeps it.
  await page.keyboard.type('Nightly');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Keep editing' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Keep editing' }).waitFor({ state: 'detached' });
  expect(await scheduleDialog.getByRole('textbox', { name: 'Schedule name' }).inputValue()).toBe('Nightly');
  await tabTo(page, 'textbox', 'Cron');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('0 3 * * *');
  await scheduleDialog.getByText(/every day at 03:00/).waitFor();
  await page.keyboard.press('Enter');
  const scheduleId = await openedWithBaseSettings(page, 'schedules', 'Schedule Nightly · 0 3 * * *');
  await tabTo(page, 'textbox', 'Schedule name');
  await tabTo(page, 'textbox', 'Cron');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('30 6 * * 1');
  await tabTo(page, 'combobox', 'Time zone');
  await page.keyboard.type('Europe/Paris');
  await tabTo(page, 'switch', 'Enabled');
  expect(await focusedControl(page)).toEqual({ name: 'Enabled', visible: true });
  await page.keyboard.press('Space');
  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  const savedSchedule = await request(`${api}/schedules/${scheduleId}`, { token });
  expect(savedSchedule.body).toMatchObject({ name: 'Nightly', cron: '30 6 * * 1', timezone: 'Europe/Paris', enabled: false });

  // The list's switch: Space turns it back on.
  await page.goto(`/projects/${projectId}/schedules`);
  const toggle = page.getByRole('switch', { name: 'Enable Nightly' });
  await toggle.waitFor();
  expect(await toggle.isChecked()).toBe(false);
  await tabTo(page, 'switch', 'Enable Nightly');
  expect(await focusedControl(page)).toEqual({ name: 'Enable Nightly', visible: true });
  await page.keyboard.press('Space');
  await page.getByRole('status').getByText('Schedule Nightly enabled').waitFor();
  expect(await isFocused(toggle)).toBe(true);
  expect((await request(`${api}/schedules/${scheduleId}`, { token })).body.enabled).toBe(true);
  expect(consoleErrors).toEqual([]);
}, 240_000);

test('the endpoint settings groups are filled in with the keyboard alone, in reading order, focus always visible', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  const project = await signedInProject(page, stack);
  const secret = await request(`${stack.controlPlaneUrl}/v1/projects/${project.projectId}/secrets/WEBHOOK_SECRET`, { method: 'PUT', token: project.token, body: { value: 'whsec_kb' } });
  expect(secret.status).toBeLessThan(300);
  const endpointId = await openFlow(page, stack, project, '/kb-settings', chainFlow([{ id: 'r1', type: 'respond', config: { body: { ok: true } } }]));
  await page.keyboard.press('/');
  await tabTo(page, 'group', 'GET /kb-settings', 60);
  await page.keyboard.press('Enter');
  await tabTo(page, 'button', 'Add query parameter');
  await page.keyboard.press('Enter');
  await focused(settings(page).getByRole('textbox', { name: 'Parameter key' }));
  await page.keyboard.type('limit');

  // Each step: Tab, the control it must reach, then what the keyboard does there.
  const walk: Array<[string, (() => Promise<void>) | null]> = [
    ['Type', () => page.keyboard.press('ArrowDown').then(() => page.keyboard.press('ArrowDown'))],
    ['Default value', () => page.keyboard.type('20')],
    ['Required', () => page.keyboard.press('Space')],
    ['Remove parameter', null],
    ['Add query parameter', null],
    ['Signature scheme', () => page.keyboard.press('ArrowDown')],
    ['Signing secret', null],
    ['Tolerance (s)', null],
    ['Cache answers', () => page.keyboard.press('Space')],
    ['Time to live (s)', null],
    ['Vary by headers', () => page.keyboard.type('Accept-Language')],
    ['One cache per key', null],
    ['Expose as MCP tool', () => page.keyboard.press('Space')],
    ['Tool description', () => page.keyboard.type('Lists the orders')],
  ];
  for (const [name, act] of walk) {
    expect(await tab(page)).toEqual({ name, visible: true });
    await act?.();
  }

  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  const saved = (await request(`${stack.controlPlaneUrl}/v1/projects/${project.projectId}/endpoints/${endpointId}`, { token: project.token })).body;
  expect(saved.query_params).toEqual([expect.objectContaining({ key: 'limit', type: 'integer', default: '20', required: true })]);
  expect(saved.signature).toEqual(expect.objectContaining({ scheme: 'stripe', secret: 'WEBHOOK_SECRET' }));
  expect(saved.cache).toEqual(expect.objectContaining({ ttl_s: 60, vary_headers: ['Accept-Language'] }));
  expect(saved.mcp).toEqual({ enabled: true, description: 'Lists the orders' });

  // Back to Method: POST brings the Body group. A field added, removed, and the raw schema opened:
  // the focus is never lost to the page.
  for (let step = 0; step < 40 && (await focusedControl(page)).name !== 'Method'; step++) await tab(page, true);
  await page.keyboard.press('ArrowDown');
  await settings(page).getByRole('group', { name: 'Body' }).waitFor();
  await tabTo(page, 'button', 'Add field');
  await page.keyboard.press('Enter');
  await focused(settings(page).getByRole('textbox', { name: 'Field name' }));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('customer');
  for (const name of ['Type', 'Required', 'Remove field customer']) expect(await tab(page)).toEqual({ name, visible: true });
  await page.keyboard.press('Enter');
  await focused(settings(page).getByRole('group', { name: 'Body' }).getByRole('button', { name: 'Add field' }));
  expect(await tab(page)).toEqual({ name: 'Edit as JSON Schema', visible: true });
  await page.keyboard.press('Enter');
  await focused(settings(page).getByRole('textbox', { name: 'JSON Schema' }));
  expect(consoleErrors).toEqual([]);
}, 240_000);
