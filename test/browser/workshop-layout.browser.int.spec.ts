/**
 * The Workshop's layout as a new user meets it: new blocks stay in view with the start block,
 * the toolbar's buttons keep to one line after Deploy and its URLs read whole from 1440 to 1024 px, and at phone width the other
 * project pages do not scroll sideways.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';
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

test('after Deploy the toolbar buttons keep to one line and the live and preview URLs read whole and copy, from 1440 to 1024 px', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await deployedEndpoint(page);
  const toolbar = page.getByRole('toolbar', { name: 'Workshop' });
  const live = toolbar.getByRole('link', { name: /^http:\/\/ws[0-9a-f]+\.localhost:\d+\/endpoint-1$/ });
  const preview = toolbar.getByRole('link', { name: /--preview\./ });
  for (const width of [1440, 1280, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    const deploy = await middle(toolbar.getByRole('button', { name: 'Deploy' }));
    const versions = await middle(toolbar.getByRole('button', { name: 'Versions' }));
    expect({ width, offset: Math.round(Math.abs(deploy - versions)) }).toEqual({ width, offset: 0 });
    for (const link of [live, preview]) {
      // The whole address is on screen: nothing cut off by an ellipsis or the window's edge.
      const shown = await link.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return element.scrollWidth <= element.clientWidth + 1 && box.right <= window.innerWidth && box.width > 0 && getComputedStyle(element).textOverflow !== 'ellipsis';
      });
      expect({ width, url: await link.textContent(), shown }).toEqual({ width, url: await link.getAttribute('href'), shown: true });
    }
  }
  await toolbar.getByRole('button', { name: 'Copy URL' }).click();
  await page.getByRole('status').filter({ hasText: /^Copied$/ }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await live.getAttribute('href'));
  await toolbar.getByRole('button', { name: 'Copy preview URL' }).click();
  await waitFor(async () => (await page.evaluate(() => navigator.clipboard.readText())) === (await preview.getAttribute('href')), 'the preview URL on the clipboard', 10_000, 100);
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

it('the Workshop at 1440, 1280 and 1024 px, light and dark: nothing leaves the window and no console error (screenshots kept)', async () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const { page, consoleErrors, close } = await suite().session({ colorScheme });
    try {
      await deployedEndpoint(page);
      await node(page, 'Respond').click();
      for (const width of [1440, 1280, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ width, colorScheme, overflow }).toEqual({ width, colorScheme, overflow: 0 });
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `workshop-${width}-${colorScheme}.png`) });
      }
      expect(consoleErrors).toEqual([]);
    } finally {
      await close();
    }
  }
}, 180_000);
