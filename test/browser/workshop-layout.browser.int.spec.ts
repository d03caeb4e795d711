/**
 * The Workshop's layout as a new user meets it: new blocks stay in view with the start block,
 * the toolbar keeps to one line after Deploy at 1280 and 1024 px, and at phone width the other
 * project pages do not scroll sideways.
 */
import type { Locator, Page } from 'playwright-core';
import { waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { addFromPool, newEndpoint, node, settings, signedInProject } from './support/workshop-steps';

const { suite, test } = browserSuite();

/** Whether each block is wholly inside the canvas, once the canvas has finished panning. */
const inCanvas = (page: Page, names: string[]) =>
  page.evaluate((labels) => {
    const canvas = document.querySelector('[aria-roledescription="node"]')?.closest('.react-flow')?.getBoundingClientRect();
    return labels.map((label) => {
      const box = document.querySelector(`[aria-roledescription="node"][aria-label="${label}"]`)?.getBoundingClientRect();
      return !!canvas && !!box && box.left >= canvas.left && box.right <= canvas.right && box.top >= canvas.top && box.bottom <= canvas.bottom;
    });
  }, names);

const allInCanvas = (page: Page, names: string[]) => waitFor(async () => (await inCanvas(page, names)).every(Boolean), `${names.join(', ')} inside the canvas`, 10_000, 100);

const middle = async (locator: Locator) => {
  const box = await locator.boundingBox();
  return box ? box.y + box.height / 2 : NaN;
};

/** A project with one endpoint (Start → Respond) deployed through the page; its id. */
async function deployedEndpoint(page: Page): Promise<string> {
  const { projectId } = await signedInProject(page, suite().stack);
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Respond');
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
  return projectId;
}

test('blocks added from the pool are shown together with the start block', async ({ page }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Set Variable');
  await settings(page).getByRole('textbox', { name: 'Name' }).fill('greeting');
  await addFromPool(page, 'Respond');
  expect(await allInCanvas(page, ['GET /endpoint-1', 'Set Variable · greeting', 'Respond'])).toBe(true);
});

test('after Deploy the toolbar keeps to one line at 1280 and 1024 px, and the URL can be copied', async ({ page }) => {
  await deployedEndpoint(page);
  const toolbar = page.getByRole('toolbar', { name: 'Workshop' });
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    const deploy = await middle(toolbar.getByRole('button', { name: 'Deploy' }));
    const copy = await middle(toolbar.getByRole('button', { name: 'Copy URL' }));
    expect({ width, offset: Math.round(Math.abs(deploy - copy)) }).toEqual({ width, offset: 0 });
  }
});

test('at phone width the endpoint list and the API docs do not scroll sideways', async ({ page }) => {
  const projectId = await deployedEndpoint(page);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, ready] of [
    ['endpoints', page.getByRole('table')],
    ['docs', page.getByRole('button', { name: 'Copy curl' })],
  ] as const) {
    await page.goto(`/projects/${projectId}/${path}`);
    await ready.first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect({ path, overflow }).toEqual({ path, overflow: 0 });
  }
});
