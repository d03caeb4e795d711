/**
 * The Functions and Schedules pages against a real stack (with a worker): a function made, given
 * an input, tested, deployed and called from an endpoint through the gateway, refused deletion
 * while in use; a schedule made, deployed, run now (its run in Logs under the trigger Schedule)
 * and switched off from its row; the scheduled clean-up template made, deployed and run.
 * Screenshots at 1440 and 1280 px, light and dark, go to .cache/browser-screenshots/ for a
 * person to look at.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { request, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';
import { node, settings, signedInProject } from './support/workshop-steps';

const { suite, test } = browserSuite({ worker: true });

/** Light and dark, at 1440 and 1280 px wide; the page is left at 1440 px, light. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-${scheme}.png`) });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a function is built in its Workshop, called from an endpoint through the gateway, and kept while in use', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  await page.setViewportSize({ width: 1440, height: 900 });
  const project = await signedInProject(page, stack);
  await page.getByRole('link', { name: 'Workshop' }).first().waitFor();
  await page.goto(`/projects/${project.projectId}/functions`);
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Functions' }).waitFor();
  await page.getByText('No functions yet').waitFor();

  await page.getByRole('button', { name: 'New function' }).click();
  const dialog = page.getByRole('dialog', { name: 'New function' });
  await dialog.getByRole('textbox', { name: 'Function name' }).fill('Greeting');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Greets someone by name');
  await shoot(page, 'new-function-dialog');
  await dialog.getByRole('button', { name: 'Create function' }).click();
  await page.waitForURL(/\/functions\/[^/]+$/);
  const functionId = page.url().split('/').pop()!;
  const hint = page.getByRole('region', { name: 'Getting started' });
  await hint.getByRole('heading', { name: 'Three steps to a working function' }).waitFor();
  expect(await hint.textContent()).toContain('Call Function');

  // Base settings: one required text input; Return answers with it.
  await node(page, 'Function Greeting').click();
  await settings(page).getByRole('button', { name: 'Add input' }).click();
  await settings(page).getByRole('textbox', { name: 'Input name' }).fill('who');
  await settings(page).getByRole('checkbox', { name: 'Required' }).check();
  await node(page, 'Return').click();
  await settings(page).getByRole('textbox', { name: 'Value' }).fill('Hello {input.who}');
  await page.getByRole('region', { name: 'Problems' }).getByText('No problems').waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').getByText('Saved').waitFor();

  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Test' });
  await panel.getByRole('textbox', { name: 'who' }).fill('Ada');
  await panel.getByRole('button', { name: 'Run test' }).click();
  await panel.getByLabel('Response body').getByText('Hello Ada').waitFor();
  // The trace is the function's own blocks, not the caller the control plane wraps it in.
  await panel.getByRole('region', { name: 'Selected block output' }).getByRole('heading', { name: 'Return' }).waitFor();
  await node(page, 'Return').locator('[data-trace-status="ok"]').waitFor();
  await node(page, 'Function Greeting').click();
  const ran = panel.getByRole('list', { name: 'Blocks run' });
  await ran.waitFor();
  expect(await ran.getByRole('button').allTextContents()).toEqual([expect.stringMatching(/^Return/)]);
  // Without its required input (and no default) the panel asks for it instead of running.
  const who = panel.getByRole('textbox', { name: 'who' });
  await who.fill('');
  await panel.getByRole('button', { name: 'Run test' }).click();
  await panel.getByText('who is required: give it a value.').waitFor();
  expect(await who.getAttribute('aria-invalid')).toBe('true');
  await who.fill('Ada');
  await shoot(page, 'function-workshop');
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();

  // An endpoint calls it: Call Function's settings show the function and one field per input.
  const flow = {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 } },
      { id: 'call', type: 'call_function', position: { x: 280, y: 0 }, config: { function: functionId, args: { who: '{params.name}' }, ref: 'greeting' } },
      { id: 'answer', type: 'respond', position: { x: 560, y: 0 }, config: { body: { text: '{result.greeting}' } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'call' },
      { id: 'e2', source: 'call', target: 'answer' },
    ],
  };
  const endpoint = await request(`${stack.controlPlaneUrl}/v1/projects/${project.projectId}/endpoints`, {
    method: 'POST',
    token: project.token,
    body: { name: 'Greet', method: 'GET', path: '/greet', auth: 'none', query_params: [{ key: 'name', default: 'world' }], flow },
  });
  expect(endpoint.status).toBe(201);
  await page.goto(`/projects/${project.projectId}/endpoints/${endpoint.body.id}`);
  await node(page, 'Call Function · greeting').click();
  const chosen = settings(page).getByRole('combobox', { name: 'Function' });
  await waitFor(async () => (await chosen.locator('option:checked').textContent()) === 'Greeting', 'the called function shown by name', 15_000, 100);
  await settings(page).getByRole('textbox', { name: 'who' }).waitFor();
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
  const host = `${project.subdomain}.localhost:${stack.gatewayPort}`;
  await waitFor(async () => (await request(`${stack.gatewayUrl}/greet?name=Grace`, { host })).status === 200, 'the gateway to serve /greet', 20_000, 100);
  expect(await request(`${stack.gatewayUrl}/greet?name=Grace`, { host })).toMatchObject({ status: 200, body: { text: 'Hello Grace' } });

  // The list; deleting the function while a live endpoint calls it is refused with the reason.
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Functions' }).click();
  const row = page.getByRole('row', { name: /Greeting/ });
  await row.getByText('who (string)').waitFor();
  await row.getByText('Live', { exact: true }).waitFor();
  await shoot(page, 'functions-list');
  await row.getByRole('button', { name: 'Delete function Greeting' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete function Greeting?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('alert').getByText(/still in use/).waitFor();
  expect(await confirm.getByRole('alert').textContent()).toContain('GET /greet');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await row.waitFor();
  // The browser reports the refused DELETE (the 409 above) as a failed load; nothing else may fail.
  expect(consoleErrors.filter((error) => !error.includes('status of 409'))).toEqual([]);
}, 240_000);

test('a schedule is set, deployed, run now (its run in Logs as trigger Schedule) and switched off from its row', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  await page.setViewportSize({ width: 1440, height: 900 });
  const project = await signedInProject(page, stack);
  await page.goto(`/projects/${project.projectId}/schedules`);
  await page.getByText('No schedules yet').waitFor();
  await page.getByRole('button', { name: 'New schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New schedule' });
  await dialog.getByRole('textbox', { name: 'Schedule name' }).fill('Nightly clean-up');
  await dialog.getByRole('textbox', { name: 'Cron' }).fill('0 3 * * *');
  await dialog.getByText(/every day at 03:00/).waitFor();
  await shoot(page, 'new-schedule-dialog');
  await dialog.getByRole('button', { name: 'Create schedule' }).click();
  await page.waitForURL(/\/schedules\/[^/]+$/);
  const scheduleId = page.url().split('/').pop()!;
  await page.getByRole('region', { name: 'Getting started' }).getByRole('heading', { name: 'Three steps to a running schedule' }).waitFor();

  await node(page, 'Schedule Nightly clean-up · 0 3 * * *').click();
  const form = settings(page);
  await form.getByRole('combobox', { name: 'Time zone' }).selectOption('Europe/Berlin');
  await form.getByRole('textbox', { name: 'Cron' }).fill('30 9 * * 1-5');
  await form.getByText('at 09:30, Monday through Friday').waitFor();
  expect(await form.getByRole('list', { name: 'Next five runs' }).getByRole('listitem').count()).toBe(5);
  expect(await form.getByRole('list', { name: 'Next five runs' }).getByRole('listitem').first().textContent()).toMatch(/^(Mon|Tue|Wed|Thu|Fri),? .* 09:30$/);
  await form.getByRole('textbox', { name: 'Cron' }).fill('0 0 9 * * *');
  await form.getByText(/five fields/).waitFor();
  await form.getByRole('textbox', { name: 'Cron' }).fill('30 9 * * 1-5');
  expect(await form.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(true);

  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
  const saved = await request(`${stack.controlPlaneUrl}/v1/projects/${project.projectId}/schedules/${scheduleId}`, { token: project.token });
  expect(saved.body).toMatchObject({ cron: '30 9 * * 1-5', timezone: 'Europe/Berlin', enabled: true, status: 'live' });
  await shoot(page, 'schedule-workshop');

  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByRole('status').getByText(/Running the live version now/).waitFor();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Logs' }).click();
  await page.getByRole('combobox', { name: 'Trigger' }).selectOption({ label: 'Schedule' });
  // The page asks again every few seconds while empty: the run appears once the worker has logged it.
  await page.getByRole('table').getByText('Nightly clean-up').waitFor({ timeout: 90_000 });

  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Schedules' }).click();
  const row = page.getByRole('row', { name: /Nightly clean-up/ });
  await row.getByText('every day', { exact: false }).or(row.getByText('at 09:30', { exact: false })).first().waitFor();
  await row.getByText('Live', { exact: true }).waitFor();
  await shoot(page, 'schedules-list');
  const toggle = row.getByRole('switch', { name: 'Enable Nightly clean-up' });
  expect(await toggle.isChecked()).toBe(true);
  // The switch shows what the server holds: it turns off once the save is answered.
  await toggle.click();
  await page.getByRole('status').getByText('Schedule Nightly clean-up disabled').waitFor();
  await waitFor(async () => (await request(`${stack.controlPlaneUrl}/v1/projects/${project.projectId}/schedules/${scheduleId}`, { token: project.token })).body.enabled === false, 'the schedule to be disabled', 10_000, 100);
  await page.reload();
  await page.getByRole('row', { name: /Nightly clean-up/ }).getByText('Disabled').waitFor();
  expect(await page.getByRole('switch', { name: 'Enable Nightly clean-up' }).isChecked()).toBe(false);
  await shoot(page, 'schedules-list-off');
  expect(consoleErrors).toEqual([]);
}, 240_000);

test('Start from a template → Scheduled clean-up makes a schedule that deploys and runs, deleting only old rows', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  await page.setViewportSize({ width: 1440, height: 900 });
  const project = await signedInProject(page, stack);
  const api = `${stack.controlPlaneUrl}/v1/projects/${project.projectId}`;
  await page.goto(`/projects/${project.projectId}/endpoints`);
  await page.getByRole('button', { name: 'Start from a template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start from a template' });
  await dialog.getByRole('button', { name: 'Scheduled clean-up' }).waitFor();
  await shoot(page, 'template-dialog');
  await dialog.getByRole('button', { name: 'Scheduled clean-up' }).click();
  await page.waitForURL(/\/schedules\/[^/]+$/);
  await node(page, 'Run Code · cutoff').waitFor();
  await node(page, 'Delete Rows · removed').waitFor();
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();

  // A row written now is younger than the cut-off: the run leaves it.
  const tables = await request(`${api}/tables`, { token: project.token });
  const events = tables.body.items.find((table: { name: string }) => table.name === 'webhook_events');
  expect((await request(`${api}/tables/${events.id}/rows`, { method: 'POST', token: project.token, body: { values: { type: 'order.paid' } } })).status).toBe(201);
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Logs' }).click();
  await page.getByRole('combobox', { name: 'Trigger' }).selectOption({ label: 'Schedule' });
  const run = page.getByRole('row', { name: /Nightly clean-up/ });
  await run.waitFor({ timeout: 90_000 });
  await run.getByText('200', { exact: true }).waitFor();
  expect((await request(`${api}/tables/${events.id}/rows`, { token: project.token })).body.items).toHaveLength(1);
  expect(consoleErrors).toEqual([]);
}, 240_000);

