/**
 * The Workshop in a real Chromium against the real stack: the README's hello flow built through
 * the UI only, saved with the keyboard, deployed and called through the gateway.
 */
import { request } from '../e2e/stack-process';
import { browserSuite } from './support/browser-test';
import { addFromPool, newEndpoint, node, settings, signedInProject, textOf, typeWithReference } from './support/workshop-steps';

const { suite, test } = browserSuite();

test('the hello flow built through the UI is deployed and answers through the gateway', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  const { projectId, subdomain } = await signedInProject(page, stack);
  await newEndpoint(page, projectId);

  // Base settings: GET /hello with the query parameter name, default world.
  await node(page, 'GET /endpoint-1').click();
  const form = settings(page);
  await form.getByRole('textbox', { name: 'Endpoint name' }).fill('Hello');
  await form.getByRole('textbox', { name: 'Path' }).fill('/hello');
  await form.getByRole('button', { name: 'Add query parameter' }).click();
  await form.getByRole('textbox', { name: 'Parameter key' }).fill('name');
  await form.getByRole('textbox', { name: 'Default value' }).fill('world');
  await node(page, 'GET /hello').waitFor();

  // Set Variable → Manipulate Text → Respond, each added after the selected block from the pool.
  await addFromPool(page, 'Set Variable');
  await form.getByRole('textbox', { name: 'Name' }).fill('greeting');
  await typeWithReference(form.getByRole('textbox', { name: 'Value' }), 'Hello ', 'params.name');
  await addFromPool(page, 'Manipulate Text');
  await typeWithReference(form.getByRole('textbox', { name: 'Input Text' }), '', 'local.greeting');
  expect(await form.getByRole('combobox', { name: 'Operation' }).inputValue()).toBe('uppercase');
  await form.getByRole('textbox', { name: 'Reference Variable' }).fill('loud');
  await node(page, 'Manipulate Text · loud').waitFor();
  await addFromPool(page, 'Respond');
  await form.getByRole('button', { name: 'Add entry' }).click();
  await form.getByRole('textbox', { name: 'Key' }).fill('message');
  await typeWithReference(form.getByRole('textbox', { name: 'Value' }), '', 'result.loud');

  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  await page.getByRole('button', { name: 'Deploy' }).click();
  const tag = page.getByRole('status').filter({ hasText: /^Live$/ });
  await tag.waitFor();
  const liveUrl = await textOf(page.getByRole('link', { name: /\/hello$/ }));
  expect(liveUrl).toBe(`http://${subdomain}.localhost:${stack.gatewayPort}/hello`);
  await page.getByRole('button', { name: 'Copy URL' }).waitFor();

  const host = `${subdomain}.localhost:${stack.gatewayPort}`;
  const answer = await request(`${stack.gatewayUrl}/hello?name=Ada`, { host });
  expect(answer).toMatchObject({ status: 200, body: { message: 'HELLO ADA' } });
  expect((await request(`${stack.gatewayUrl}/api/hello`, { host })).body).toEqual({ message: 'HELLO WORLD' });
  expect(await page.getByRole('region', { name: 'Problems' }).textContent()).toContain('No problems');
  expect(consoleErrors).toEqual([]);
});
