/**
 * The Workshop's fields say what is true: a bad pattern is flagged as it is typed, Versions
 * reports only real differences, a new filter row stores the operator it shows, and options read
 * in people's words.
 */
import { request, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { addFromPool, newEndpoint, node, openFlow, settings, signedInProject, textOf } from './support/workshop-steps';

const { suite, test } = browserSuite();

test('a pattern the regex engine refuses is flagged while typing, before any test run', async ({ page }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Match Regex');
  const pattern = settings(page).getByRole('textbox', { name: 'Pattern' });
  await pattern.click();
  await pattern.pressSequentially('*abc');
  await waitFor(async () => (await pattern.getAttribute('aria-invalid')) === 'true', 'the pattern marked invalid', 30_000, 100);
  const problem = page.getByRole('region', { name: 'Problems' }).getByRole('button', { name: /missing argument to repetition operator/ });
  expect(await textOf(problem)).toMatch(/— Pattern$/);
});

test('Versions reports no change for a draft identical to the live version, and names the field that did change', async ({ page }) => {
  const { stack } = suite();
  const project = await signedInProject(page, stack);
  // Keys in an order PostgreSQL's jsonb does not keep (it stores shorter keys first).
  const body = { message: 'hi', count: 1, z: { beta: 2, a: 1 } };
  const endpointId = await openFlow(page, stack, project, '/same', {
    nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, { id: 'r', type: 'respond', position: { x: 240, y: 0 }, config: { status: 200, body } }],
    edges: [{ id: 'e1', source: 'start', target: 'r' }],
  });
  const deployed = await request(`${stack.controlPlaneUrl}/v1/projects/${project.projectId}/endpoints/${endpointId}/deploy`, { method: 'POST', token: project.token });
  expect(deployed.status).toBe(200);
  await page.reload();
  await node(page, 'Respond').waitFor();
  await page.getByRole('button', { name: 'Versions' }).click();
  const versions = page.getByRole('region', { name: 'Versions' });
  await versions.getByRole('button', { name: 'Changes in the draft since version 1' }).click();
  await versions.getByText('The draft is the same as this version.').waitFor();

  await page.keyboard.press('Escape');
  await node(page, 'Respond').click();
  const status = settings(page).getByRole('spinbutton', { name: 'Status' });
  await status.fill('201');
  await page.getByRole('button', { name: 'Versions' }).click();
  // The comparison stays open from before.
  await versions.getByRole('button', { name: 'Changes in the draft since version 1', expanded: true }).waitFor();
  expect(await textOf(versions.getByRole('listitem').filter({ hasText: /^Respond:/ }))).toBe('Respond: settings changed (Status)');
});

test('a new Query Rows filter stores the operator it shows; options read in people\'s words', async ({ page }) => {
  const { stack } = suite();
  const project = await signedInProject(page, stack);
  const table = await request(`${stack.controlPlaneUrl}/v1/projects/${project.projectId}/tables`, {
    method: 'POST',
    token: project.token,
    body: { name: 'orders', columns: [{ name: 'total', type: 'number' }] },
  });
  expect(table.status).toBe(201);
  const endpointId = await newEndpoint(page, project.projectId);
  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Query Rows');
  const form = settings(page);
  await form.getByRole('combobox', { name: 'Table' }).selectOption('orders');
  await form.getByRole('button', { name: 'Add to Filter' }).click();
  const operator = form.getByRole('group', { name: 'Filter' }).getByRole('combobox', { name: 'Operator' });
  expect(await operator.locator('option:checked').textContent()).toBe('= (eq)');
  expect(await operator.locator('option').allTextContents()).toEqual(expect.arrayContaining(['≥ (gte)', 'is empty']));
  await form.getByRole('group', { name: 'Filter' }).getByRole('combobox', { name: 'Column' }).selectOption('total');
  await form.getByRole('group', { name: 'Filter' }).getByRole('textbox', { name: 'Value' }).click();
  await page.keyboard.type('10');

  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  const saved = await request(`${stack.controlPlaneUrl}/v1/projects/${project.projectId}/endpoints/${endpointId}`, { token: project.token });
  const query = saved.body.flow.nodes.find((block: { type: string }) => block.type === 'query_rows');
  expect(query.config.filter).toEqual([{ column: 'total', operator: 'eq', value: 10 }]);
  expect(await page.getByRole('region', { name: 'Problems' }).getByText(/operator/i).count()).toBe(0);

  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Manipulate Text');
  expect(await form.getByRole('combobox', { name: 'Operation' }).locator('option').allTextContents()).toEqual(expect.arrayContaining(['Uppercase', 'Trim spaces']));
});
