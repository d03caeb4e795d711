/**
 * The Logs page's Trigger filter against a real stack: requests through the gateway are listed
 * under HTTP and Any, not under Schedule; the choice is kept in the URL. Screenshots of the
 * filters in both themes go to .cache/browser-screenshots/logs-trigger-{light,dark}.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { request, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';

const { suite, test } = browserSuite();

test('Trigger filters the Logs by what started the runs', async ({ page, consoleErrors }) => {
  const { controlPlaneUrl, gatewayUrl, gatewayPort, suffix } = suite().stack;
  const email = `trigger-${suffix}@example.test`;
  const password = 'correct horse battery staple';
  const { body: account } = await request(`${controlPlaneUrl}/v1/auth/signup`, { method: 'POST', body: { email, password } });
  const token = account.token as string;
  const subdomain = `trig${suffix}`;
  const { body: project } = await request(`${controlPlaneUrl}/v1/projects`, { method: 'POST', token, body: { name: 'Trigger shop', subdomain } });
  const flow = {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 } },
      { id: 'answer', type: 'respond', position: { x: 0, y: 120 }, config: { body: { ok: true } } },
    ],
    edges: [{ id: 'e1', source: 'start', target: 'answer' }],
  };
  const { body: endpoint } = await request(`${controlPlaneUrl}/v1/projects/${project.id}/endpoints`, { method: 'POST', token, body: { name: 'Hello', method: 'GET', path: '/hello', auth: 'none', flow } });
  await request(`${controlPlaneUrl}/v1/projects/${project.id}/endpoints/${endpoint.id}/deploy`, { method: 'POST', token });
  const host = `${subdomain}.localhost:${gatewayPort}`;
  await waitFor(async () => (await request(`${gatewayUrl}/hello`, { host })).status === 200, 'the gateway to serve /hello', 20_000, 100);
  await waitFor(async () => ((await request(`${controlPlaneUrl}/v1/projects/${project.id}/logs`, { token })).body.items?.length ?? 0) >= 1, 'the request stored', 60_000, 100);

  const logsPath = `/projects/${project.id}/logs`;
  await page.goto(`/login?next=${encodeURIComponent(logsPath)}`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**${logsPath}`);

  const details = page.getByRole('table').getByRole('button', { name: 'Details' });
  await details.first().waitFor();
  const trigger = page.getByRole('combobox', { name: 'Trigger' });
  await trigger.selectOption({ label: 'Schedule' });
  await page.waitForURL('**trigger=schedule');
  await page.getByText('No requests match').first().waitFor();
  expect(await details.count()).toBe(0);
  await trigger.selectOption({ label: 'HTTP' });
  await page.waitForURL('**trigger=http');
  await details.first().waitFor();

  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `logs-trigger-${scheme}.png`) });
  }
  expect(consoleErrors).toEqual([]);
});
