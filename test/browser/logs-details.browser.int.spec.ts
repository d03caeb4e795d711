/**
 * What a request-log row shows in the Logs page, against a real stack: the details of a keyed
 * POST (its headers with the key redacted and a secret value masked, its body's first 4,096
 * characters, the answer's size), the `cached` marker of a cached GET's second answer, and chart
 * bars that fit the range (requests 20 minutes apart in bars of their own over a day and over an
 * hour). Screenshots of the details and the charts in both themes go to
 * .cache/browser-screenshots/logs-details{,-end}-{light,dark}.png and logs-buckets-{light,dark}.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { call, connectProducer, makeEvent, request, sendEvents, testKafka, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR, signIn } from './support/session';

const { suite, test } = browserSuite();

const SECRET = 'shop_secret_0123456789abcdef';
const respond = (body: unknown) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'answer', type: 'respond', position: { x: 0, y: 120 }, config: { status: 200, body } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'answer' }],
});

/** A project with a secret, a keyed POST /orders and a cached GET /catalogue; one POST, two GETs, and three earlier requests 20 minutes apart. */
async function seed(email: string, password: string) {
  const { controlPlaneUrl, gatewayUrl, gatewayPort, suffix, logTopic } = suite().stack;
  const { body: account } = await request(`${controlPlaneUrl}/v1/auth/signup`, { method: 'POST', body: { email, password } });
  const token = account.token as string;
  const api = (route: string, options: Parameters<typeof request>[1] = {}) => request(`${controlPlaneUrl}/v1${route}`, { token, ...options });
  const { body: project } = await api('/projects', { method: 'POST', body: { name: 'Details shop', subdomain: `det${suffix}` } });
  expect((await api(`/projects/${project.id}/secrets/SHOP_TOKEN`, { method: 'PUT', body: { value: SECRET } })).status).toBe(201);
  const endpoints = [
    { name: 'Orders', method: 'POST', path: '/orders', auth: 'user', flow: respond({ ok: true, id: 17 }) },
    { name: 'Catalogue', method: 'GET', path: '/catalogue', auth: 'none', cache: { ttl_s: 600 }, flow: respond({ items: ['tea', 'cake'] }) },
  ];
  for (const endpoint of endpoints) {
    const { body } = await api(`/projects/${project.id}/endpoints`, { method: 'POST', body: endpoint });
    expect((await api(`/projects/${project.id}/endpoints/${body.id}/deploy`, { method: 'POST' })).status).toBe(200);
  }
  const key = (await api(`/projects/${project.id}/api-keys`, { method: 'POST', body: { name: 'Shop app', permission: 'user', ratelimit_min: 100 } })).body.key as string;
  const host = `det${suffix}.localhost:${gatewayPort}`;
  await waitFor(async () => (await call(gatewayUrl, host, '/catalogue')).status === 200, 'the gateway to serve /catalogue', 20_000, 100);
  expect((await call(gatewayUrl, host, '/catalogue')).headers['x-cache']).toBe('HIT');
  const body = JSON.stringify({ customer: 'Ada', card: SECRET, note: 'n'.repeat(12_000) });
  const posted = await call(gatewayUrl, host, '/orders', { method: 'POST', key, body, headers: { 'content-type': 'application/json', 'x-shop-token': SECRET } });
  expect(posted.status).toBe(200);

  // Requests 5, 25 and 45 minutes ago, as a gateway reports them: three 15-minute buckets, one hour.
  const producer = await connectProducer(testKafka());
  try {
    const earlier = [5, 25, 45].map((minutes) => makeEvent({ project_id: project.id, endpoint_id: null, path: '/earlier', time: new Date(Date.now() - minutes * 60_000).toISOString() }));
    await sendEvents(producer, logTopic, earlier);
  } finally {
    await producer.disconnect();
  }
  await waitFor(async () => {
    const { body: page } = await api(`/projects/${project.id}/logs?limit=200`);
    const items = (page.items ?? []) as Array<{ endpoint: string; cache: string | null }>;
    return items.filter((item) => item.endpoint === '/earlier').length === 3 && items.some((item) => item.endpoint === '/orders') && items.some((item) => item.cache === 'hit');
  }, 'the requests stored', 60_000, 200);
  return { projectId: project.id as string, key, bodyBytes: Buffer.byteLength(body), answerBytes: Buffer.byteLength(posted.text) };
}

async function screenshots(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Bars of the Requests chart with at least one request. */
const bars = (page: Page) => page.getByRole('img', { name: 'Requests over time' }).locator('rect.bar-ok, rect.bar-error');

test("Log details show the request's headers, body and the answer's size; cache hits are marked; chart bars fit the range", async ({ page, consoleErrors }) => {
  const email = `details-${suite().stack.suffix}@example.test`;
  const password = 'correct horse battery staple';
  const { projectId, key, bodyBytes, answerBytes } = await seed(email, password);
  const logsPath = `/projects/${projectId}/logs`;
  await signIn(page, email, password, logsPath);

  const rows = page.getByRole('table').first().getByRole('row');
  const catalogueRows = rows.filter({ hasText: '/catalogue' });
  await catalogueRows.first().waitFor();
  expect(await catalogueRows.filter({ hasText: 'cached' }).count()).toBe(1);

  // Over the last 24 hours, 15-minute bars: the requests 20 minutes apart do not share one.
  await waitFor(async () => (await bars(page).count()) >= 3, 'three bars over a day', 15_000, 100);
  await screenshots(page, 'logs-buckets');
  await page.getByRole('combobox', { name: 'Time range' }).selectOption({ label: 'Last hour' });
  await page.waitForURL('**range=1h');
  await waitFor(async () => (await bars(page).count()) >= 4, 'four one-minute bars over an hour', 15_000, 100);

  // The POST's details, opened and closed with the keyboard alone.
  const details = rows.filter({ hasText: '/orders' }).getByRole('button', { name: 'Details' });
  await details.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Log details' });
  const headers = dialog.getByRole('table', { name: 'Request headers' });
  await headers.waitFor();
  const headerText = async (name: string) => (await headers.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) }).getByRole('cell').textContent())?.trim();
  expect(await headerText('authorization')).toBe('[redacted]');
  expect(await headerText('x-shop-token')).toBe('[secret:SHOP_TOKEN]');
  expect(await headerText('content-type')).toBe('application/json');
  const shownBody = (await dialog.getByLabel('Request body').textContent()) ?? '';
  expect(shownBody.startsWith('{"customer":"Ada","card":"[secret:SHOP_TOKEN]","note":"nnn')).toBe(true);
  expect(shownBody.length).toBeLessThanOrEqual(4096);
  await dialog.getByText(`First 4,096 characters shown (the body is ${(bodyBytes / 1000).toFixed(1)} KB)`).waitFor();
  await dialog.getByText(`200, ${answerBytes} bytes`).waitFor();
  const everything = (await dialog.textContent()) ?? '';
  expect(everything).not.toContain(SECRET);
  expect(everything).not.toContain(key);
  await screenshots(page, 'logs-details');
  await dialog.evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await screenshots(page, 'logs-details-end');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await details.evaluate((button) => button === document.activeElement)).toBe(true);
  expect(consoleErrors).toEqual([]);
});
