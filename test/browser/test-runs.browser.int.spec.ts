/**
 * Workshop test runs in a real Chromium against the real stack: a flow built through the UI is
 * run unsaved with a sample request (each block's output on the canvas, the response in the
 * panel), a request that failed live is opened from Logs and replayed against the draft, and a
 * Send External Request that got no answer shows as failed with its reason though the flow went
 * on. Screenshots, light and dark, go to .cache/browser-screenshots/test-runs-*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { request } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';
import { addFromPool, chainFlow, newEndpoint, node, openFlow, settings, signedInProject, textOf, typeWithReference } from './support/workshop-steps';
import { setTimeout as sleep } from 'node:timers/promises';

const { suite, test } = browserSuite();

async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `test-runs-${name}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const testPanel = (page: Page) => page.getByRole('region', { name: 'Test' });

test('a flow built in the Workshop runs unsaved with a sample request: each block shows its output, the panel the response', async ({ page, consoleErrors }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await newEndpoint(page, projectId);

  await node(page, 'GET /endpoint-1').click();
  const form = settings(page);
  await form.getByRole('button', { name: 'Add query parameter' }).click();
  await form.getByRole('textbox', { name: 'Parameter key' }).fill('name');
  await form.getByRole('textbox', { name: 'Default value' }).fill('world');
  await addFromPool(page, 'Set Variable');
  await form.getByRole('textbox', { name: 'Name' }).fill('greeting');
  await typeWithReference(form.getByRole('textbox', { name: 'Value' }), 'Hello ', 'params.name');
  await addFromPool(page, 'Manipulate Text');
  await typeWithReference(form.getByRole('textbox', { name: 'Input Text' }), '', 'local.greeting');
  await form.getByRole('textbox', { name: 'Reference Variable' }).fill('loud');
  await addFromPool(page, 'Respond');
  await form.getByRole('button', { name: 'Add entry' }).click();
  await form.getByRole('textbox', { name: 'Key' }).fill('message');
  await typeWithReference(form.getByRole('textbox', { name: 'Value' }), '', 'result.loud');

  // Not saved: the test runs what the editor holds.
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const panel = testPanel(page);
  expect(await panel.getByRole('textbox', { name: 'Method' }).inputValue()).toBe('GET');
  expect(await panel.getByRole('textbox', { name: 'name' }).inputValue()).toBe('world');
  await panel.getByRole('textbox', { name: 'name' }).fill('Ada');
  await panel.getByRole('button', { name: 'Run test' }).click();

  const result = panel.getByRole('region', { name: 'Test result' });
  expect(await textOf(result.getByLabel('Response body'))).toContain('"message": "HELLO ADA"');
  // The canvas draws only what is in view: show the whole flow.
  await page.getByRole('button', { name: 'Fit view' }).click();
  expect(await textOf(result.locator('.tr-heading').first())).toContain('200');
  expect(await textOf(node(page, 'Set Variable · greeting'))).toContain('Hello Ada');
  expect(await textOf(node(page, 'Manipulate Text · loud'))).toMatch(/ok · [\d.]+ ms.*HELLO ADA/s);
  expect(await textOf(node(page, 'Respond'))).toContain('"status":200');
  await page.locator('.react-flow__edge.tr-taken').first().waitFor();

  // Selecting a block shows its full output in the panel.
  await node(page, 'Manipulate Text · loud').click();
  const selected = panel.getByRole('region', { name: 'Selected block output' });
  expect(await textOf(selected.getByLabel('Output of Manipulate Text'))).toBe('HELLO ADA');
  await screenshots(page, 'run');
  expect(consoleErrors).toEqual([]);
});

test('a request that failed live is replayed from Logs against the draft, and the failing block says why', async ({ page }) => {
  const { stack } = suite();
  const { projectId, subdomain, token } = await signedInProject(page, stack);
  const api = `${stack.controlPlaneUrl}/v1`;
  const at = { x: 0, y: 0 };
  const flow = {
    nodes: [
      { id: 'start', type: 'start', position: at },
      { id: 'n1', type: 'decode_text', position: { x: 260, y: 0 }, config: { input: '{params.data}', encoding: 'hex', ref: 'plain' } },
      { id: 'n2', type: 'respond', position: { x: 520, y: 0 }, config: { body: { plain: '{result.plain}' } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'n2' },
    ],
  };
  const created = await request(`${api}/projects/${projectId}/endpoints`, {
    method: 'POST',
    token,
    body: { name: 'Decode', method: 'GET', path: '/decode', auth: 'none', query_params: [{ key: 'data', default: '6869' }], flow },
  });
  await request(`${api}/projects/${projectId}/endpoints/${created.body.id}/deploy`, { method: 'POST', token });
  const host = `${subdomain}.localhost:${stack.gatewayPort}`;
  expect((await request(`${stack.gatewayUrl}/decode?data=zz`, { host })).status).toBe(500);
  // The log row arrives through Kafka and log-ingest.
  for (let tries = 0; ; tries++) {
    const logs = await request(`${api}/projects/${projectId}/logs`, { token });
    if (logs.body.items?.some((item: { status: number }) => item.status === 500)) break;
    if (tries > 150) throw new Error('the failed request never reached the logs');
    await sleep(200);
  }

  await page.goto(`/projects/${projectId}/logs`);
  await page.getByRole('button', { name: 'Details' }).first().click();
  const details = page.getByRole('dialog', { name: 'Log details' });
  await details.getByRole('button', { name: 'Replay in Workshop' }).click();
  await page.waitForURL(/\/endpoints\/[^/?]+\?replay=/);

  const panel = testPanel(page);
  expect(await panel.getByRole('textbox', { name: 'Path' }).inputValue()).toBe('/decode');
  expect(await panel.getByRole('textbox', { name: 'data' }).inputValue()).toBe('zz');
  // Two clicks (Details, Replay in Workshop): the replayed request has already run.
  const result = panel.getByRole('region', { name: 'Test result' });
  expect(await textOf(result.getByLabel('Response body'))).toContain('"code": "flow_error"');
  const failing = node(page, 'Decode Text · plain');
  expect(await textOf(failing.locator('[data-trace-status="error"]'))).toMatch(/error · .*not valid hex/s);
  await failing.click();
  expect(await textOf(panel.getByRole('region', { name: 'Selected block output' }))).toContain('Decode Text (n1)');
  await screenshots(page, 'replay');
});

/** Whether the element can be clicked where it is, without scrolling anything: nothing covers or clips its centre. */
const reachable = (locator: ReturnType<Page['getByRole']>) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });

test('the Test panel has room of its own beside a selected block\'s settings; a refusal shows at its top and clears after the fix is saved', async ({ page }) => {
  const project = await signedInProject(page, suite().stack);
  const flow = chainFlow([
    { id: 'm', type: 'manipulate_text', config: { input: '{local.nope}', operation: 'uppercase', ref: 'loud' } },
    { id: 'r', type: 'respond', config: { body: { loud: '{result.loud}' } } },
  ]);
  await openFlow(page, suite().stack, project, '/refused', flow);
  await node(page, 'Manipulate Text · loud').click();
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const panel = testPanel(page);
  const run = panel.getByRole('button', { name: 'Run test' });
  await run.waitFor();
  // Both in view at once: the block's settings and the Test panel's Run test.
  expect(await reachable(settings(page).getByRole('textbox', { name: 'Input Text' }))).toBe(true);
  expect(await reachable(run)).toBe(true);

  await run.click();
  const refusal = panel.getByRole('alert').filter({ hasText: 'nope' });
  await refusal.waitFor();
  expect(await reachable(refusal.locator('p').first())).toBe(true);
  // At the top of the panel: above the request's fields.
  expect((await refusal.boundingBox())!.y).toBeLessThan((await panel.getByRole('textbox', { name: 'Method' }).boundingBox())!.y);

  // The fix, saved: the refusal goes.
  const input = settings(page).getByRole('textbox', { name: 'Input Text' });
  await input.click();
  await input.press('ControlOrMeta+a');
  await input.pressSequentially('hello');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').getByText('Saved').waitFor();
  await refusal.waitFor({ state: 'detached' });
  await run.click();
  expect(await textOf(panel.getByRole('region', { name: 'Test result' }).getByLabel('Response body'))).toContain('"loud": "HELLO"');
  await screenshots(page, 'bottom-panel');
});

test('a Send External Request that gets no answer shows as failed with its reason, in Blocks run and on the canvas, while the flow goes on', async ({ page, consoleErrors }) => {
  const project = await signedInProject(page, suite().stack);
  const flow = chainFlow([
    // `.invalid` never resolves (RFC 2606): the request cannot be made.
    { id: 'call', type: 'http_request', config: { name: 'api', url: 'http://nowhere.invalid/orders', method: 'GET' } },
    { id: 'answer', type: 'respond', config: { body: { error: '{api.error}' } } },
  ]);
  await openFlow(page, suite().stack, project, '/unreachable', flow);
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const panel = testPanel(page);
  await panel.getByRole('button', { name: 'Run test' }).click();

  // The flow went on: Respond answered with the reason's code.
  expect(await textOf(panel.getByRole('region', { name: 'Test result' }).getByLabel('Response body'))).toContain('"error": "connection_failed"');
  const steps = panel.getByRole('list', { name: 'Blocks run' });
  const failed = steps.getByRole('button', { name: /^Send External Request/ });
  expect(await textOf(failed)).toContain('error · went on, its result says why');
  expect(await textOf(steps.getByRole('listitem').filter({ has: page.getByRole('button', { name: /^Send External Request/ }) }))).toMatch(/the request failed: could not resolve nowhere\.invalid/);
  expect(await textOf(steps.getByRole('button', { name: /^Respond/ }))).toContain('ok');
  await page.getByRole('button', { name: 'Fit view' }).click();
  expect(await textOf(node(page, 'Send External Request · api'))).toMatch(/error · went on.*could not resolve/s);
  await screenshots(page, 'failed-request');
  expect(consoleErrors).toEqual([]);
});
