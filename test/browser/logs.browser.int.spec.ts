/**
 * Traffic sent to a real gateway shows up in Logs: charts and totals, the table with
 * Back/Next, the filters in the URL, and the details of a failed request (log-ingest writes
 * the rows and the stats rollups from the gateway's Kafka events). Screenshots of the page in
 * both themes go to .cache/browser-screenshots/logs-{light,dark}.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { request, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR, signIn } from './support/session';

const { suite, test } = browserSuite();

const flow = (block: Record<string, unknown>) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'answer', position: { x: 0, y: 120 }, ...block },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'answer' }],
});

/** An account with a project, two live endpoints and 58 requests through the gateway, made over HTTP. */
async function seed(email: string, password: string) {
  const { controlPlaneUrl, gatewayUrl, gatewayPort, suffix } = suite().stack;
  const { body: account } = await request(`${controlPlaneUrl}/v1/auth/signup`, { method: 'POST', body: { email, password } });
  const token = account.token as string;
  const subdomain = `logs${suffix}`;
  const { body: project } = await request(`${controlPlaneUrl}/v1/projects`, { method: 'POST', token, body: { name: 'Logs shop', subdomain } });
  const endpoints = [
    { name: 'Hello', path: '/hello', query_params: [{ key: 'name', default: 'world' }], flow: flow({ type: 'respond', config: { status: 200, body: { message: 'Hello {params.name}' } } }) },
    { name: 'Order', path: '/order', query_params: [{ key: 'id', default: null }], flow: flow({ type: 'return_error', config: { status: 404, message: 'No order {params.id}', code: 'no_order' } }) },
  ];
  const ids: Record<string, string> = {};
  for (const endpoint of endpoints) {
    const { body } = await request(`${controlPlaneUrl}/v1/projects/${project.id}/endpoints`, { method: 'POST', token, body: { method: 'GET', auth: 'none', ...endpoint } });
    ids[endpoint.path] = body.id;
    const deployed = await request(`${controlPlaneUrl}/v1/projects/${project.id}/endpoints/${body.id}/deploy`, { method: 'POST', token });
    expect(deployed.status).toBe(200);
  }
  const host = `${subdomain}.localhost:${gatewayPort}`;
  const call = (target: string) => request(`${gatewayUrl}${target}`, { host });
  await waitFor(async () => (await call('/hello')).status === 200, 'the gateway to serve /hello', 20_000, 100);
  for (let i = 0; i < 54; i++) expect((await call(`/hello?name=user${i}`)).status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await call(`/order?id=${40 + i}`)).status).toBe(404);
  // 1 + 54 + 3 = 58 requests; wait until log-ingest has stored them all.
  const stored = await waitFor(async () => {
    const { body } = await request(`${controlPlaneUrl}/v1/projects/${project.id}/logs/stats`, { token });
    return body.totals?.count >= 58 ? body.totals.count : undefined;
  }, '58 stored requests', 60_000, 100);
  expect(stored).toBe(58);
  return { projectId: project.id as string, orderEndpointId: ids['/order']! };
}

const rows = (page: Page) => page.getByRole('table').getByRole('row').filter({ has: page.getByRole('button', { name: 'Details' }) });

test('requests sent to the gateway appear in Logs with charts, totals, pages, filters and details', async ({ page, consoleErrors }) => {
  const email = `logs-${suite().stack.suffix}@example.test`;
  const password = 'correct horse battery staple';
  const { projectId, orderEndpointId } = await seed(email, password);
  const logsPath = `/projects/${projectId}/logs`;
  await signIn(page, email, password, logsPath);

  const totals = page.getByRole('region', { name: 'Totals' });
  await totals.getByText('58', { exact: true }).waitFor(); // exact: "p95 8.41 ms" holds 58 too
  expect(await totals.textContent()).toMatch(/Error rate\s*5\.2 %/);
  expect(await page.getByRole('img', { name: 'Requests over time' }).locator('rect').count()).toBeGreaterThan(0);
  expect(await page.getByRole('img', { name: 'Latency over time' }).locator('polyline, circle').count()).toBeGreaterThan(0);

  // 58 entries: 50 on the first page, newest first, then 8.
  await rows(page).nth(49).waitFor();
  expect(await rows(page).count()).toBe(50);
  expect(await rows(page).first().textContent()).toMatch(/\/order.*GET.*404/);
  expect(await page.getByRole('button', { name: 'Back' }).isDisabled()).toBe(true);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 8);
  expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
  await page.getByRole('button', { name: 'Back' }).click();
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 50);
  expect(await page.getByRole('button', { name: 'Back' }).isDisabled()).toBe(true);

  // Filters go to the URL and survive a reload.
  await page.getByRole('combobox', { name: 'Status' }).selectOption('4xx');
  await page.waitForURL(/status=4xx/);
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 3);
  await page.getByRole('textbox', { name: 'Endpoint' }).fill('/order');
  await page.waitForURL(/endpoint=%2Forder/);
  await page.reload();
  await totals.getByText('3', { exact: true }).waitFor();
  expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('4xx');
  expect(await page.getByRole('textbox', { name: 'Endpoint' }).inputValue()).toBe('/order');
  // Totals and the table are separate requests: the totals may show before the rows arrive.
  await rows(page).nth(2).waitFor();
  expect(await rows(page).count()).toBe(3);

  // Details of a failed request: code, message, the Return Error block, the query; Replay.
  // The newest is id=42, even when the three calls were logged in the same millisecond: rows
  // that share a time are ordered by id, and a gateway's log ids are time-ordered (UUIDv7).
  await rows(page).first().getByRole('button', { name: 'Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log details' });
  await dialog.getByText('No order 42').waitFor();
  const text = (await dialog.textContent()) ?? '';
  expect(text).toMatch(/No key/);
  expect(text).toMatch(/no_order/);
  expect(text).toMatch(/Failed block\s*answer/);
  expect(text).toMatch(/\?id=42/);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `logs-details-${scheme}.png`) });
  }
  await dialog.getByRole('button', { name: 'Replay in Workshop' }).click();
  await page.waitForURL(`**/projects/${projectId}/endpoints/${orderEndpointId}?replay=*`);

  await page.goto(logsPath);
  await totals.getByText('58', { exact: true }).waitFor(); // exact: "p95 8.41 ms" holds 58 too
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `logs-${scheme}.png`), fullPage: true });
  }
  expect(consoleErrors).toEqual([]);
}, 240_000);
