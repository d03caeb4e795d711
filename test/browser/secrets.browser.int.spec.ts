/**
 * Secrets and the preview address in a real Chromium against the real stack: Settings →
 * Secrets (add with a bad name first, replace, delete naming the live endpoint that reads it),
 * the Workshop's completion offering `{secrets.…}`, and the preview URL copied from the toolbar
 * and called through the gateway with a key. Screenshots of the Secrets group, its dialog and
 * the Workshop toolbar in both themes go to .cache/browser-screenshots/secrets-*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { request } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';
import { addFromPool, newEndpoint, node, settings, signedInProject, typeWithReference } from './support/workshop-steps';

const { suite, test } = browserSuite();

const VALUE = 'sk-live-9f8e7d6c5b4a';
const PREVIEW_VALUE = 'sk-test-1a2b3c4d5e';
const REPLACED = 'sk-live-0000aaaa1111';

async function screenshots(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `secrets-${name}-${scheme}.png`), fullPage });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a secret is added, offered in the Workshop, used on the preview address, replaced and deleted', async ({ page, context, consoleErrors }) => {
  const { stack } = suite();
  const { projectId, subdomain, token } = await signedInProject(page, stack);
  const api = `${stack.controlPlaneUrl}/v1/projects/${projectId}`;

  // Settings → Secrets: a bad name is reported beside the field, then the secret is saved.
  await page.goto(`/projects/${projectId}/settings`);
  const group = page.getByRole('group', { name: 'Secrets' });
  await group.getByText('No secrets yet').waitFor();
  await group.getByRole('button', { name: 'Add secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add secret' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('9 token');
  await dialog.getByLabel('Value', { exact: true }).fill(VALUE);
  await dialog.getByRole('button', { name: 'Save secret' }).click();
  expect(await dialog.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('API_TOKEN');
  await dialog.getByLabel('Preview value').fill(PREVIEW_VALUE);
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Billing API');
  await screenshots(page, 'dialog');
  await dialog.getByRole('button', { name: 'Save secret' }).click();
  await page.getByRole('status').getByText('Secret API_TOKEN saved').waitFor();
  await group.getByRole('row', { name: /API_TOKEN.*Billing API/ }).waitFor();

  // The Workshop offers it after `{secrets.` and checks names as Deploy does.
  const endpointId = await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  const form = settings(page);
  await form.getByRole('textbox', { name: 'Endpoint name' }).fill('Hello');
  await form.getByRole('textbox', { name: 'Path' }).fill('/hello');
  await node(page, 'GET /hello').waitFor();
  await addFromPool(page, 'Set Variable');
  await form.getByRole('textbox', { name: 'Name' }).fill('auth');
  const value = form.getByRole('textbox', { name: 'Value' });
  await value.click();
  await value.pressSequentially('Bearer {secrets.');
  await page.getByRole('option', { name: /\{secrets\.API_TOKEN\}/ }).waitFor();
  await typeWithReference(value, 'Bearer ', 'secrets.API_TOKEN');
  await addFromPool(page, 'Respond');
  await form.getByRole('button', { name: 'Add entry' }).click();
  await form.getByRole('textbox', { name: 'Key' }).fill('sent');
  await typeWithReference(form.getByRole('textbox', { name: 'Value' }), '', 'local.auth');
  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();

  // The preview URL, copied from the toolbar, serves the saved draft with a key and the preview value.
  const previewUrl = `http://${subdomain}--preview.localhost:${stack.gatewayPort}/hello`;
  await page.getByRole('link', { name: previewUrl }).waitFor();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.dashboardUrl });
  await page.getByRole('button', { name: 'Copy preview URL' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(previewUrl);
  await screenshots(page, 'workshop');
  const key = (await request(`${api}/api-keys`, { method: 'POST', token, body: { name: 'preview' } })).body.key as string;
  const copied = new URL(previewUrl);
  const call = (host: string, withKey: boolean) => request(`${stack.gatewayUrl}${copied.pathname}`, { host, token: withKey ? key : undefined });
  expect(await call(copied.host, true)).toMatchObject({ status: 200, body: { sent: `Bearer ${PREVIEW_VALUE}` } });
  expect((await call(copied.host, false)).status).toBe(401);
  expect((await call(`${subdomain}.localhost:${stack.gatewayPort}`, false)).status).toBe(404);

  // Deployed, the live address uses the live value; Replace changes it for the next request.
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
  const live = () => request(`${stack.gatewayUrl}/hello`, { host: `${subdomain}.localhost:${stack.gatewayPort}` });
  expect((await live()).body).toEqual({ sent: `Bearer ${VALUE}` });
  await page.goto(`/projects/${projectId}/settings`);
  await group.getByRole('row', { name: /API_TOKEN.*Hello/ }).waitFor();
  await group.getByRole('button', { name: 'Replace secret API_TOKEN' }).click();
  const replace = page.getByRole('dialog', { name: 'Replace secret API_TOKEN' });
  expect(await replace.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('API_TOKEN');
  expect(await replace.getByLabel('Value', { exact: true }).inputValue()).toBe('');
  await replace.getByLabel('Value', { exact: true }).fill(REPLACED);
  await replace.getByRole('button', { name: 'Save secret' }).click();
  await page.getByRole('status').getByText('Secret API_TOKEN replaced').waitFor();
  expect((await live()).body).toEqual({ sent: `Bearer ${REPLACED}` });
  await screenshots(page, 'settings', true);
  for (const secret of [VALUE, PREVIEW_VALUE, REPLACED]) expect(await page.content()).not.toContain(secret);

  // Delete: the confirmation names the live endpoint that reads it; afterwards the flow fails naming the secret.
  await group.getByRole('button', { name: 'Delete secret API_TOKEN' }).click();
  const confirm = page.getByRole('alertdialog');
  expect(await confirm.textContent()).toContain('Hello');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('status').getByText('Secret API_TOKEN deleted').waitFor();
  await group.getByText('No secrets yet').waitFor();
  expect(await live()).toMatchObject({ status: 500, body: { code: 'flow_error', message: expect.stringContaining('API_TOKEN') } });
  expect(endpointId).toBeTruthy();
  expect(consoleErrors).toEqual([]);
}, 300_000);

test('the Secrets group works with the keyboard alone', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  const { projectId } = await signedInProject(page, stack);
  await page.goto(`/projects/${projectId}/settings`);
  const group = page.getByRole('group', { name: 'Secrets' });
  await group.getByText('No secrets yet').waitFor();
  await group.getByRole('button', { name: 'Add secret' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add secret' });
  await dialog.waitFor();
  // Focus starts inside the dialog, on Name; Tab walks Value, Preview value, Description, Save secret.
  expect(await dialog.getByRole('textbox', { name: 'Name' }).evaluate((element) => element === document.activeElement)).toBe(true);
  await page.keyboard.type('KEYBOARD_TOKEN');
  await page.keyboard.press('Tab');
  await page.keyboard.type('kb-value-12345');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('typed only');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Save secret');
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Secret KEYBOARD_TOKEN saved').waitFor();
  await group.getByRole('row', { name: /KEYBOARD_TOKEN.*typed only/ }).waitFor();

  await group.getByRole('button', { name: 'Replace secret KEYBOARD_TOKEN' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Replace secret KEYBOARD_TOKEN' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  await group.getByRole('button', { name: 'Delete secret KEYBOARD_TOKEN' }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog');
  await confirm.waitFor();
  // Focus starts on Cancel: Enter alone never deletes.
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Secret KEYBOARD_TOKEN deleted').waitFor();
  await group.getByText('No secrets yet').waitFor();
  expect(consoleErrors).toEqual([]);
});
