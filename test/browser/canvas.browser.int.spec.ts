/**
 * The canvas as a new user's mouse meets it (real pointer events): a block's problems never take
 * the pointer from the canvas, a connection released anywhere on a block connects to it, the
 * minimap can be hidden and no drop lands under it, a block dropped on a connection is inserted
 * into it, and pasted or duplicated blocks land at the pointer when it is over the canvas, else
 * clear of the others.
 */
import type { Locator, Page } from 'playwright-core';
import { browserSuite } from './support/browser-test';
import { centre, connection, handle, node, openFlow, signedInProject, type FlowFixture } from './support/workshop-steps';

const { suite, test } = browserSuite();

const at = (x: number, y: number) => ({ x, y });
const start = { id: 'start', type: 'start', position: at(0, 0) };

/** Presses the mouse at `from`, moves in steps to `to` (calling `over` just before release), and releases. */
async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }, over?: () => Promise<void>) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let step = 1; step <= 12; step++) await page.mouse.move(from.x + ((to.x - from.x) * step) / 12, from.y + ((to.y - from.y) * step) / 12);
  await over?.();
  await page.mouse.up();
}

type Box = { name: string | null; left: number; top: number; right: number; bottom: number };
const boxesOf = (locator: Locator): Promise<Box[]> =>
  locator.evaluateAll((elements) => elements.map((element) => ({ name: element.getAttribute('aria-label'), ...element.getBoundingClientRect().toJSON() })));
const overlapping = (boxes: Box[]) =>
  boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom).map((b) => `${a.name} / ${b.name}`));
const blocks = (page: Page) => page.locator('[aria-roledescription="node"]');
const blockIds = (page: Page) => blocks(page).evaluateAll((elements) => elements.map((element) => element.getAttribute('data-id')));

/** Runs `step`, waits for the one block it adds and gives its box on screen. */
async function addedBlock(page: Page, step: () => Promise<void>) {
  const before = await blockIds(page);
  await step();
  await blocks(page).nth(before.length).waitFor();
  const added = (await blockIds(page)).find((id) => !before.includes(id));
  return (await page.locator(`[aria-roledescription="node"][data-id="${added}"]`).boundingBox())!;
}

test('a selected block\'s problems never cover the neighbour below it: its handle still starts a connection', async ({ page }) => {
  const project = await signedInProject(page, suite().stack);
  const flow: FlowFixture = {
    nodes: [
      start,
      { id: 'broken', type: 'manipulate_text', position: at(240, 0), config: { input: '{local.nope}', operation: 'uppercase', ref: 'loud' } },
      // Just below the broken block, where its problems box opens.
      { id: 'below', type: 'set_variable', position: at(240, 70), config: { name: 'b', value: 'x' } },
      { id: 'last', type: 'respond', position: at(560, 70), config: { body: { ok: true } } },
    ],
    edges: [{ id: 'e1', source: 'start', target: 'broken' }],
  };
  await openFlow(page, suite().stack, project, '/problems', flow);
  const broken = node(page, 'Manipulate Text · loud');
  const problems = broken.getByRole('tooltip');

  // On hover the problems show; moving onto them is moving onto the canvas (they take no pointer).
  await broken.hover();
  await problems.waitFor({ state: 'visible' });
  const inside = await centre(problems);
  const under = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[role="tooltip"]') !== null, inside);
  expect(under).toBe(false);

  // Selected (clicked), the block keeps its problems to itself once the pointer leaves it.
  await broken.click();
  await page.mouse.move(5, 5);
  await problems.waitFor({ state: 'hidden' });

  await drag(page, await centre(handle(node(page, 'Set Variable · b'), 'output')), await centre(handle(node(page, 'Respond'), 'input')));
  await connection(page, 'below', 'last').waitFor();
  // The broken block did not move: the press went to the handle under its problems box.
  expect(await connection(page, 'start', 'broken').count()).toBe(1);

  // Copies pasted twice do not pile their problems up on the canvas.
  await broken.click();
  await page.keyboard.press('ControlOrMeta+c');
  await page.keyboard.press('ControlOrMeta+v');
  await page.keyboard.press('ControlOrMeta+v');
  await node(page, 'Manipulate Text · loud3').waitFor();
  await page.mouse.move(5, 5);
  expect(await page.getByRole('tooltip').filter({ visible: true }).count()).toBe(0);
});

test('a connection released anywhere on a block connects to its input, which highlights while dragging', async ({ page }) => {
  const project = await signedInProject(page, suite().stack);
  await openFlow(page, suite().stack, project, '/body', { nodes: [start, { id: 'answer', type: 'respond', position: at(400, 120), config: { body: { ok: true } } }], edges: [] });
  const target = node(page, 'Respond');
  const input = handle(target, 'input');
  const idle = await input.evaluate((element) => getComputedStyle(element).backgroundColor);
  const box = (await target.boundingBox())!;
  // The right end of the block: far from its 10 px input handle on the left.
  const release = { x: box.x + box.width - 20, y: box.y + box.height / 2 };
  let highlighted = '';
  await drag(page, await centre(handle(node(page, 'GET /body'), 'output')), release, async () => {
    highlighted = await input.evaluate((element) => getComputedStyle(element).backgroundColor);
  });
  expect(highlighted).not.toBe(idle);
  await connection(page, 'start', 'answer').waitFor();
  expect(await input.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(idle);
});

test('a block dropped on the minimap lands clear of it and can be connected; Hide minimap hides it for good', async ({ page }) => {
  const project = await signedInProject(page, suite().stack);
  await openFlow(page, suite().stack, project, '/corner', { nodes: [start], edges: [] });
  const canvas = page.getByRole('region', { name: 'Canvas' });
  const minimap = page.getByRole('img', { name: 'Minimap' });
  const map = (await minimap.boundingBox())!;
  const canvasBox = (await canvas.boundingBox())!;
  await page
    .getByRole('complementary', { name: 'Action pool' })
    .getByRole('button', { name: 'Respond', exact: true })
    .dragTo(canvas, { targetPosition: { x: map.x + map.width / 2 - canvasBox.x, y: map.y + map.height / 2 - canvasBox.y } });

  const dropped = node(page, 'Respond');
  const placed = (await dropped.boundingBox())!;
  for (const overlay of [map, (await page.getByRole('button', { name: 'Hide minimap' }).boundingBox())!]) {
    const covers = placed.x < overlay.x + overlay.width && overlay.x < placed.x + placed.width && placed.y < overlay.y + overlay.height && overlay.y < placed.y + placed.height;
    expect(covers).toBe(false);
  }
  const id = await dropped.getAttribute('data-id');
  await drag(page, await centre(handle(node(page, 'GET /corner'), 'output')), await centre(dropped));
  await connection(page, 'start', id!).waitFor();

  await page.getByRole('button', { name: 'Hide minimap' }).click();
  await minimap.waitFor({ state: 'detached' });
  await page.reload();
  await page.getByRole('button', { name: 'Show minimap' }).waitFor();
  expect(await minimap.count()).toBe(0);
  await page.getByRole('button', { name: 'Show minimap' }).click();
  await minimap.waitFor();
});

test('a block dropped on a connection is inserted into it; duplicated and pasted blocks land clear of the others', async ({ page }) => {
  const project = await signedInProject(page, suite().stack);
  const flow: FlowFixture = { nodes: [start, { id: 'answer', type: 'respond', position: at(480, 0), config: { body: { ok: true } } }], edges: [{ id: 'e1', source: 'start', target: 'answer' }] };
  await openFlow(page, suite().stack, project, '/insert', flow);
  const from = await centre(handle(node(page, 'GET /insert'), 'output'));
  const to = await centre(handle(node(page, 'Respond'), 'input'));
  const canvasBox = (await page.getByRole('region', { name: 'Canvas' }).boundingBox())!;
  await page
    .getByRole('complementary', { name: 'Action pool' })
    .getByRole('button', { name: 'Set Variable', exact: true })
    .dragTo(page.getByRole('region', { name: 'Canvas' }), { targetPosition: { x: (from.x + to.x) / 2 - canvasBox.x, y: (from.y + to.y) / 2 - canvasBox.y } });

  const inserted = page.locator('[aria-roledescription="node"][aria-label^="Set Variable"]');
  const id = await inserted.getAttribute('data-id');
  await connection(page, 'start', id!).waitFor();
  await connection(page, id!, 'answer').waitFor();
  expect(await connection(page, 'start', 'answer').count()).toBe(0);
  expect(overlapping(await boxesOf(blocks(page)))).toEqual([]);

  await inserted.click();
  await page.keyboard.press('ControlOrMeta+d');
  await page.keyboard.press('ControlOrMeta+c');
  await page.keyboard.press('ControlOrMeta+v');
  await blocks(page).nth(4).waitFor();
  expect(overlapping(await boxesOf(blocks(page)))).toEqual([]);
});

test('a block pasted with the pointer over the canvas lands at the pointer; with the pointer elsewhere, a duplicate lands below its original', async ({ page }) => {
  const project = await signedInProject(page, suite().stack);
  const flow: FlowFixture = { nodes: [start, { id: 'answer', type: 'respond', position: at(480, 0), config: { body: { ok: true } } }], edges: [{ id: 'e1', source: 'start', target: 'answer' }] };
  await openFlow(page, suite().stack, project, '/paste', flow);
  await node(page, 'Respond').click();
  await page.keyboard.press('ControlOrMeta+c');

  // An empty spot of the canvas, below the start block (away from the minimap in the other corner).
  const startBox = (await node(page, 'GET /paste').boundingBox())!;
  const spot = { x: startBox.x + startBox.width / 2 + 30, y: startBox.y + startBox.height + 160 };
  await page.mouse.move(spot.x, spot.y);
  const pastedBox = await addedBlock(page, () => page.keyboard.press('ControlOrMeta+v'));
  expect(spot.x).toBeGreaterThan(pastedBox.x);
  expect(spot.x).toBeLessThan(pastedBox.x + pastedBox.width);
  expect(spot.y).toBeGreaterThan(pastedBox.y);
  expect(spot.y).toBeLessThan(pastedBox.y + pastedBox.height);
  expect(Math.abs(pastedBox.x + pastedBox.width / 2 - spot.x)).toBeLessThan(3);

  // The pointer on the action pool, not the canvas: the duplicate goes below the copy, covering nothing.
  const pool = (await page.getByRole('complementary', { name: 'Action pool' }).boundingBox())!;
  await page.mouse.move(pool.x + pool.width / 2, pool.y + pool.height - 20);
  const duplicateBox = await addedBlock(page, () => page.keyboard.press('ControlOrMeta+d'));
  expect(duplicateBox.y).toBeGreaterThanOrEqual(pastedBox.y + pastedBox.height);
  expect(overlapping(await boxesOf(blocks(page)))).toEqual([]);

  // With the pointer on a block, a paste goes down from there to where it covers none.
  const respond = await centre(page.locator('[aria-roledescription="node"][data-id="answer"]'));
  await page.mouse.move(respond.x, respond.y);
  await page.keyboard.press('ControlOrMeta+v');
  await blocks(page).nth(4).waitFor();
  expect(overlapping(await boxesOf(blocks(page)))).toEqual([]);
});
