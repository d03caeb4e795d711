/**
 * The drafting assistant in the Workshop, against the real stack whose control plane's Anthropic
 * SDK talks to a stand-in Messages API: `Describe it instead` opens a new endpoint's Workshop with
 * the draft under way; the draft is previewed, applied as one undo step, discarded, cancelled; and
 * an installation without the operator's key says how to enable it (a second control plane,
 * without the key, behind the same dashboard build).
 */
import path from 'node:path';
import { type AppProcess, freePort, type MessagesStandIn, spawnApp, startMessagesStandIn, waitReady } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { serveDashboard } from './support/dashboard-server';
import { tabTo } from './support/keyboard';
import { openSession, SCREENSHOT_DIR, withScreenshotOnFailure } from './support/session';
import { node, signedInProject, textOf } from './support/workshop-steps';

const greeting = {
  explanation: 'Answers a greeting with the name from the query, or "world".',
  settings: { name: 'Greet', method: 'GET', path: '/greet', auth: 'none', query_params: [{ key: 'name', default: 'world' }] },
  flow: {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, config: {} },
      { id: 'n1', type: 'respond', position: { x: 240, y: 0 }, config: { status: 200, body: { greeting: 'Hello {params.name}' } } },
    ],
    edges: [{ id: 'e1', source: 'start', target: 'n1', sourceHandle: null }],
  },
};

let model: MessagesStandIn;
beforeAll(async () => {
  model = await startMessagesStandIn();
  model.script('Greet people by name', [{ toolInput: greeting }]);
  model.script('An order lookup', [{ toolInput: { ...greeting, explanation: 'Looks orders up.', settings: { ...greeting.settings, path: '/orders' } } }]);
  model.script('This takes forever', [{ hold: true }]);
});
const { suite, test } = browserSuite({ controlPlaneEnv: () => ({ FLOWGATE_ASSISTANT_API_KEY: 'sk-ant-operator-browser-0123456789', ANTHROPIC_BASE_URL: model.url }) });
afterAll(() => model?.close());

const shot = (name: string) => path.join(SCREENSHOT_DIR, `assistant-${name}.png`);

test('Describe it instead drafts a new endpoint; the draft is applied as one undo step, discarded, and cancelled', async ({ page, consoleErrors }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await page.goto(`/projects/${projectId}/endpoints`);
  await page.getByRole('button', { name: 'Describe it instead' }).click();
  const dialog = page.getByRole('dialog', { name: 'Describe a new endpoint' });
  await dialog.getByRole('textbox', { name: 'Describe the endpoint' }).fill('Greet people by name, from the query');
  await page.screenshot({ path: shot('describe-dialog-light'), fullPage: true });
  await dialog.getByRole('button', { name: 'Draft it' }).click();

  await page.waitForURL(/\/endpoints\/[^/]+$/);
  const panel = page.getByRole('complementary', { name: 'Assistant' });
  expect(await panel.getByRole('textbox', { name: 'Describe the endpoint' }).inputValue()).toBe('Greet people by name, from the query');
  await panel.getByText(greeting.explanation).waitFor();
  expect(await textOf(panel.getByRole('list', { name: 'Blocks added' }))).toContain('Respond (n1)');
  expect(await textOf(panel.getByRole('list', { name: 'Settings changed' }))).toContain('Path: /endpoint-1 → /greet');
  await page.screenshot({ path: shot('draft-light'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: shot('draft-dark'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  // Nothing changed yet: the canvas still holds the new endpoint's Start.
  await node(page, 'GET /endpoint-1').waitFor();

  await panel.getByRole('button', { name: 'Apply draft' }).click();
  await node(page, 'GET /greet').waitFor();
  // The view fits the new flow: the Respond block is wholly inside the canvas.
  const canvas = page.getByRole('region', { name: 'Canvas' });
  await page.waitForFunction(
    ([outer, inner]) => {
      const [a, b] = [outer!.getBoundingClientRect(), inner!.getBoundingClientRect()];
      return b.width > 0 && b.left >= a.left && b.right <= a.right && b.top >= a.top && b.bottom <= a.bottom;
    },
    [await canvas.elementHandle(), await node(page, 'Respond').elementHandle()],
  );
  await page.screenshot({ path: shot('applied-light'), fullPage: true });
  await page.getByRole('button', { name: 'Undo' }).click();
  await node(page, 'GET /endpoint-1').waitFor();
  await page.getByRole('button', { name: 'Redo' }).click();
  await node(page, 'GET /greet').waitFor();

  const description = panel.getByRole('textbox', { name: 'Describe the endpoint' });
  await description.fill('An order lookup');
  await panel.getByRole('button', { name: 'Draft it' }).click();
  await panel.getByText('Looks orders up.').waitFor();
  await panel.getByRole('button', { name: 'Discard' }).click();
  await panel.getByRole('button', { name: 'Apply draft' }).waitFor({ state: 'detached' });
  await node(page, 'GET /greet').waitFor();

  await description.fill('This takes forever');
  await panel.getByRole('button', { name: 'Draft it' }).click();
  await panel.getByRole('progressbar', { name: 'Drafting…' }).waitFor();
  await page.screenshot({ path: shot('drafting-light'), fullPage: true });
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await panel.getByRole('progressbar').waitFor({ state: 'detached' });
  expect(await description.inputValue()).toBe('This takes forever');
  expect(consoleErrors).toEqual([]);
});

test('the assistant works with the keyboard alone', async ({ page, consoleErrors }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await page.goto(`/projects/${projectId}/endpoints`);
  await tabTo(page, 'button', 'New endpoint');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/endpoints\/[^/]+$/);
  await tabTo(page, 'button', 'Ask the assistant', 80);
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Assistant' });
  const description = panel.getByRole('textbox', { name: 'Describe the endpoint' });
  await page.waitForFunction(() => document.activeElement?.tagName === 'TEXTAREA');
  await page.keyboard.type('Greet people by name');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await panel.getByText(greeting.explanation).waitFor();
  expect(await description.inputValue()).toBe('Greet people by name');
  await tabTo(page, 'button', 'Apply draft');
  await page.keyboard.press('Enter');
  await node(page, 'GET /greet').waitFor();
  await page.keyboard.press('ControlOrMeta+z');
  await node(page, 'GET /endpoint-1').waitFor();
  expect(consoleErrors).toEqual([]);
});

test('without the operator’s key the panel and the endpoint list say how to enable the assistant', async () => {
  const { stack, browser } = suite();
  const [port, internalPort] = await Promise.all([freePort(), freePort()]);
  const keyless: AppProcess = spawnApp('control-plane', {
    CONTROL_PLANE_PORT: String(port),
    CONTROL_PLANE_INTERNAL_PORT: String(internalPort),
    GATEWAY_PUBLIC_URL: `http://{subdomain}.localhost:${stack.gatewayPort}`,
    FLOWGATE_ASSISTANT_API_KEY: '',
  });
  const apps: AppProcess[] = [keyless];
  try {
    const controlPlaneUrl = `http://127.0.0.1:${port}`;
    await waitReady(keyless, `${controlPlaneUrl}/readyz`);
    const dashboard = await serveDashboard(stack.dashboardDist, controlPlaneUrl);
    apps.push(dashboard.process);
    const session = await openSession(browser, dashboard.url);
    try {
      await withScreenshotOnFailure(session.page, 'assistant-unavailable', async () => {
        const { page } = session;
        const { projectId } = await signedInProject(page, { ...stack, controlPlaneUrl, dashboardUrl: dashboard.url });
        await page.goto(`/projects/${projectId}/endpoints`);
        await page.getByRole('button', { name: 'Describe it instead' }).click();
        const dialog = page.getByRole('dialog', { name: 'Describe a new endpoint' });
        await dialog.getByText(/FLOWGATE_ASSISTANT_API_KEY/).waitFor();
        expect(await dialog.getByRole('button', { name: 'Draft it' }).count()).toBe(0);
        await dialog.getByRole('button', { name: 'Done' }).click();

        await page.getByRole('button', { name: 'New endpoint' }).click();
        await page.waitForURL(/\/endpoints\/[^/]+$/);
        await page.getByRole('button', { name: 'Ask the assistant' }).click();
        const panel = page.getByRole('complementary', { name: 'Assistant' });
        await panel.getByText(/FLOWGATE_ASSISTANT_API_KEY/).waitFor();
        expect(await panel.getByRole('button', { name: 'Draft it' }).count()).toBe(0);
        await page.screenshot({ path: shot('unavailable-light'), fullPage: true });
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.screenshot({ path: shot('unavailable-dark'), fullPage: true });
        expect(session.consoleErrors).toEqual([]);
      });
    } finally {
      await session.close();
    }
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
  }
}, 180_000);
