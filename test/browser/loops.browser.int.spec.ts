/**
 * A loop with an error path built in a real Chromium by dragging: blocks dragged from the pool,
 * connected by dragging from the For Each's `each` / `done` handles and from the red `error`
 * handle, deployed and called through the gateway. Screenshots of the canvas (light and dark)
 * are kept under .cache/browser-screenshots/ for a person to look at.
 */
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { request, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { newEndpoint, node, settings, signedInProject } from './support/workshop-steps';

const { suite, test } = browserSuite();
const SHOTS = path.resolve(__dirname, '../../.cache/browser-screenshots');

/** Drags a block from the pool onto the canvas at `at` (canvas coordinates). */
async function dragFromPool(page: Page, label: string, at: { x: number; y: number }): Promise<void> {
  const pool = page.getByRole('complementary', { name: 'Action pool' });
  await pool.getByRole('button', { name: label, exact: true }).dragTo(page.getByRole('region', { name: 'Canvas' }), { targetPosition: at });
}

type Point = { x: number; y: number };

/** Waits until the canvas stops moving (a block added out of view, Fit view: both animate). */
async function settled(page: Page, target: Locator): Promise<void> {
  let last = '';
  await waitFor(
    async () => {
      const box = JSON.stringify(await target.boundingBox());
      const still = box === last && box !== 'null';
      last = box;
      return still;
    },
    'the canvas to stop moving',
    10_000,
    150,
  );
}

/** Shows the whole flow, then presses the pointer on `from` and releases it on the target block's left edge (its input handle). */
async function drag(page: Page, from: () => Promise<Point>, target: Locator): Promise<void> {
  await page.getByRole('button', { name: 'Fit view' }).click();
  await settled(page, target);
  const start = await from();
  const box = await target.boundingBox();
  if (!box) throw new Error('the target block is not on screen');
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  const to = { x: box.x + 2, y: box.y + box.height / 2 };
  for (let step = 1; step <= 8; step++) await page.mouse.move(start.x + ((to.x - start.x) * step) / 8, start.y + ((to.y - start.y) * step) / 8);
  await page.mouse.up();
}

const centre = (locator: Locator) => async (): Promise<Point> => {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
};

/** The block's ordinary way out: the right edge, at mid-height. */
const rightEdge = (block: Locator) => async (): Promise<Point> => {
  const box = await block.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width - 1, y: box.y + box.height / 2 };
};

async function edit(page: Page, block: Locator, fields: Array<[string, string]>): Promise<void> {
  await block.click();
  const form = settings(page);
  for (const [name, value] of fields) await form.getByRole('textbox', { name, exact: true }).fill(value);
}

test('a For Each with an error path, built by dragging, is deployed and answers through the gateway', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  const { projectId, subdomain } = await signedInProject(page, stack);
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  await settings(page).getByRole('textbox', { name: 'Path' }).fill('/decode');
  await node(page, 'GET /decode').waitFor();

  // Start → For Each, then the body and the answer dragged from the pool.
  await dragFromPool(page, 'For Each', { x: 300, y: 120 });
  const loop = page.locator('[aria-roledescription="node"][aria-label^="For Each"]');
  await edit(page, loop, [
    ['List', '["6869", "zz"]'],
    ['Collect', '{local.text}'],
    ['Reference name', 'out'],
  ]);
  const forEach = node(page, 'For Each · out');
  await drag(page, rightEdge(node(page, 'GET /decode')), forEach);

  await dragFromPool(page, 'Decode Text', { x: 20, y: 20 });
  const decode = page.locator('[aria-roledescription="node"][aria-label^="Decode Text"]');
  await edit(page, decode, [
    ['Input Text', '{local.item}'],
    ['Reference Variable', 'dec'],
  ]);
  await settings(page).getByRole('combobox', { name: 'Encoding' }).selectOption('hex');
  await drag(page, centre(forEach.getByLabel('each', { exact: true })), node(page, 'Decode Text · dec'));

  await dragFromPool(page, 'Set Variable', { x: 20, y: 400 });
  await edit(page, page.locator('[aria-roledescription="node"][aria-label^="Set Variable"]').first(), [
    ['Name', 'text'],
    ['Value', '{result.dec}'],
  ]);
  await drag(page, rightEdge(node(page, 'Decode Text · dec')), node(page, 'Set Variable · text'));

  await dragFromPool(page, 'Set Variable', { x: 250, y: 470 });
  await edit(page, page.locator('[aria-roledescription="node"][aria-label^="Set Variable · "]').last(), [
    ['Name', 'text'],
    ['Value', 'unreadable: {dec.error.code}'],
  ]);
  const setters = page.locator('[aria-roledescription="node"][aria-label="Set Variable · text"]');
  await drag(page, centre(node(page, 'Decode Text · dec').getByLabel('error', { exact: true })), setters.last());

  await dragFromPool(page, 'Respond', { x: 330, y: 20 });
  const respond = page.locator('[aria-roledescription="node"][aria-label^="Respond"]');
  await respond.click();
  await settings(page).getByRole('button', { name: 'Add entry' }).click();
  await settings(page).getByRole('textbox', { name: 'Key' }).fill('out');
  await settings(page).getByRole('textbox', { name: 'Value' }).fill('{local.out}');
  await drag(page, centre(forEach.getByLabel('done', { exact: true })), respond);

  await page.getByRole('region', { name: 'Problems' }).getByText('No problems').waitFor();
  await page.getByRole('region', { name: 'Canvas' }).screenshot({ path: path.join(SHOTS, 'loops-canvas-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('region', { name: 'Canvas' }).screenshot({ path: path.join(SHOTS, 'loops-canvas-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
  const answer = await request(`${stack.gatewayUrl}/decode`, { host: `${subdomain}.localhost:${stack.gatewayPort}` });
  expect(answer).toMatchObject({ status: 200, body: { out: ['hi', 'unreadable: failed'] } });

  // A test run's trace: the iterations under the For Each, the error path in the second. With no
  // block selected (a click on the empty canvas) the panel lists the blocks run.
  await page.getByRole('button', { name: 'Fit view' }).click();
  await page.getByRole('region', { name: 'Canvas' }).click({ position: { x: 6, y: 6 } });
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Test' });
  await panel.getByRole('button', { name: 'Run test' }).click();
  const iterations = panel.getByRole('list', { name: 'Iterations of For Each' });
  await iterations.getByText('Iteration 2').click();
  await iterations.getByText(/went on by the error handle/).waitFor();
  await page.screenshot({ path: path.join(SHOTS, 'loops-test-panel-light.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(SHOTS, 'loops-test-panel-dark.png'), fullPage: true });
  expect(consoleErrors).toEqual([]);
});
