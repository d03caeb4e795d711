/**
 * Stream Text in the Workshop: found in the pool under Integrations, added with a double-click,
 * its fields those of Generate Text, and Deploy refused while the project has no
 * text-generation integration (it cannot be skipped as Generate Text is).
 */
import path from 'node:path';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';
import { addFromPool, newEndpoint, node, settings, signedInProject, textOf } from './support/workshop-steps';

const { suite, test } = browserSuite();

test('Stream Text is added from the Integrations group and refused at Deploy without the integration', async ({ page, consoleErrors }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await newEndpoint(page, projectId);
  const integrations = page.getByRole('complementary', { name: 'Action pool' }).getByRole('region', { name: 'Integrations' });
  await integrations.getByRole('button', { name: 'Stream Text', exact: true }).waitFor();

  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Stream Text');
  const form = settings(page);
  for (const name of ['Prompt', 'Model', 'Temperature', 'Max tokens']) await form.getByLabel(name, { exact: true }).first().waitFor();
  const prompt = form.getByRole('textbox', { name: 'Prompt' });
  await prompt.click();
  await prompt.pressSequentially('Tell a short story');
  await page.keyboard.press('Escape');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'stream-text-light.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'stream-text-dark.png'), fullPage: true });

  await page.getByRole('button', { name: 'Deploy' }).click();
  expect(await textOf(page.getByRole('alert').filter({ hasText: 'Deploy refused' }))).toMatch(/cannot be deployed/);
  await page.getByRole('region', { name: 'Problems' }).getByText(/text-generation integration/).first().waitFor();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'stream-text-refused-dark.png'), fullPage: true });
  expect(await textOf(page.getByRole('status').filter({ hasText: /^(Draft|Live)/ }))).toBe('Draft');
  expect(consoleErrors.filter((line) => !line.includes('400'))).toEqual([]);
});
