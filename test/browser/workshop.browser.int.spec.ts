/**
 * The Workshop in a real Chromium against the real stack: the README's hello flow built through
 * the UI only, saved with the keyboard, deployed and called through the gateway.
 */
import { request, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { diagnose } from '../../apps/dashboard/src/features/workshop/diagnostics/diagnose';
import { saveBody } from '../../apps/dashboard/src/features/workshop/model/endpoint-doc';
import type { WorkshopDoc } from '../../apps/dashboard/src/features/workshop/model/workshop-document';
import { addFromPool, newEndpoint, node, PASSWORD, settings, signedInProject, textOf, typeWithReference } from './support/workshop-steps';

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
  // The live URL and, beside it, the preview URL (the links are named by their address).
  const liveUrl = `http://${subdomain}.localhost:${stack.gatewayPort}/hello`;
  expect(await textOf(page.getByRole('link', { name: liveUrl, exact: true }))).toBe(liveUrl);
  await page.getByRole('button', { name: 'Copy URL' }).waitFor();
  await page.getByRole('link', { name: `http://${subdomain}--preview.localhost:${stack.gatewayPort}/hello`, exact: true }).waitFor();
  await page.getByRole('button', { name: 'Copy preview URL' }).waitFor();

  const host = `${subdomain}.localhost:${stack.gatewayPort}`;
  const answer = await request(`${stack.gatewayUrl}/hello?name=Ada`, { host });
  expect(answer).toMatchObject({ status: 200, body: { message: 'HELLO ADA' } });
  expect((await request(`${stack.gatewayUrl}/api/hello`, { host })).body).toEqual({ message: 'HELLO WORLD' });
  // The Problems list is compiled 250 ms after the last edit; the Deploy can come back sooner.
  await page.getByRole('region', { name: 'Problems' }).getByText('No problems').waitFor();
  expect(consoleErrors).toEqual([]);
});

test('a broken flow shows its problem on the block and at the field, and Deploy is refused', async ({ page }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Manipulate Text');
  const input = settings(page).getByRole('textbox', { name: 'Input Text' });
  await input.click();
  await input.pressSequentially('{local.nothing');
  await page.keyboard.press('Escape');

  const block = node(page, 'Manipulate Text · text1');
  const reason = 'no block before this one sets "nothing"';
  // The block's problems show while the pointer is on it.
  await block.hover();
  await waitFor(async () => (await textOf(block.getByRole('tooltip'))).includes(reason), 'the reason in the block\'s tooltip', 30_000, 100);
  await waitFor(async () => (await input.getAttribute('aria-invalid')) === 'true', 'the field marked invalid', 30_000, 100);
  const problems = page.getByRole('region', { name: 'Problems' });
  const problem = problems.getByRole('button', { name: new RegExp(reason) });
  expect(await textOf(problem)).toMatch(/error: Manipulate Text \(n1\): .* — Input Text$/);

  // Clicking the problem selects the block and focuses the field.
  await node(page, 'GET /endpoint-1').click();
  await problem.click();
  await waitFor(() => input.evaluate((element) => element === element.ownerDocument.activeElement), 'the field to have focus', 30_000, 100);

  await page.getByRole('button', { name: 'Deploy' }).click();
  expect(await textOf(page.getByRole('alert').filter({ hasText: 'Deploy refused' }))).toMatch(/cannot be deployed/);
  expect(await textOf(page.getByRole('status').filter({ hasText: /^(Draft|Live)/ }))).toBe('Draft');
  expect(await problem.count()).toBeGreaterThan(0);
});

test('undo and redo restore the flow exactly, a drag being one step', async ({ page }) => {
  const { stack } = suite();
  const { projectId, token } = await signedInProject(page, stack);
  const endpointId = await newEndpoint(page, projectId);
  const saved = async () => {
    const put = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().endsWith(`/endpoints/${endpointId}`));
    await page.keyboard.press('ControlOrMeta+s');
    expect((await put).status()).toBe(200);
    return (await request(`${stack.controlPlaneUrl}/v1/projects/${projectId}/endpoints/${endpointId}`, { token })).body.flow;
  };
  const original = await saved();

  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Set Variable');
  await settings(page).getByRole('textbox', { name: 'Name' }).fill('kept');
  await addFromPool(page, 'Respond');
  const respond = node(page, 'Respond');
  const box = (await respond.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let step = 1; step <= 5; step++) await page.mouse.move(box.x + box.width / 2 + step * 12, box.y + box.height / 2 + step * 10);
  await page.mouse.up();
  await node(page, 'Set Variable · kept').click();
  await page.keyboard.press('Delete');
  await respond.waitFor();
  expect(await node(page, 'Set Variable · kept').count()).toBe(0);
  const edited = await saved();

  // Five edits: add, field change, add, move (one drag), delete.
  for (let step = 0; step < 5; step++) await page.keyboard.press('ControlOrMeta+z');
  expect(await saved()).toEqual(original);
  for (let step = 0; step < 5; step++) await page.keyboard.press('ControlOrMeta+Shift+z');
  expect(await saved()).toEqual(edited);
});

test('Tidy up lays a piled-up flow out with no overlapping blocks, true branch above false', async ({ page }) => {
  const { stack } = suite();
  const { projectId, token } = await signedInProject(page, stack);
  const at = { x: 0, y: 0 };
  const blocks = [
    { id: 'c', type: 'condition', position: at, config: { left: '{params.n}', operator: 'gt', right: 10 } },
    { id: 'no', type: 'respond', position: at, config: { body: { size: 'small' } } },
    ...Array.from({ length: 8 }, (_, index) => ({ id: `v${index}`, type: 'set_variable', position: at, config: { name: `v${index}`, value: 'x' } })),
    { id: 'yes', type: 'respond', position: at, config: { body: { size: 'big' } } },
  ];
  const chain = ['c', ...blocks.filter((block) => block.id.startsWith('v')).map((block) => block.id), 'yes'];
  const edges = [
    { id: 'e0', source: 'start', target: 'c' },
    { id: 'ef', source: 'c', target: 'no', sourceHandle: 'false' },
    ...chain.slice(1).map((target, index) => ({ id: `e${index + 1}`, source: chain[index], target, ...(index === 0 ? { sourceHandle: 'true' } : {}) })),
  ];
  const created = await request(`${stack.controlPlaneUrl}/v1/projects/${projectId}/endpoints`, {
    method: 'POST',
    token,
    body: { name: 'Piled', method: 'GET', path: '/piled', auth: 'none', query_params: [{ key: 'n', default: '0' }], flow: { nodes: [{ id: 'start', type: 'start', position: at }, ...blocks], edges } },
  });
  await page.goto(`/projects/${projectId}/endpoints/${created.body.id}`);
  await node(page, 'GET /piled').waitFor();
  await page.getByRole('button', { name: 'Tidy up' }).click();
  await page.getByRole('button', { name: 'Undo' }).and(page.locator(':enabled')).waitFor();
  // The canvas draws only the blocks in view: wait until the fit after Tidy up shows all twelve.
  await page.locator('[aria-roledescription="node"]').nth(11).waitFor();

  const boxes = await page.locator('[aria-roledescription="node"]').evaluateAll((elements) =>
    elements.map((element) => ({ name: element.getAttribute('aria-label'), ...element.getBoundingClientRect().toJSON() })),
  );
  expect(boxes).toHaveLength(12);
  const overlapping = boxes.flatMap((a, i) =>
    boxes.slice(i + 1).filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom).map((b) => `${a.name} / ${b.name}`),
  );
  expect(overlapping).toEqual([]);
  const top = (name: string) => boxes.find((box) => box.name === name)!.top;
  expect(top('Set Variable · v0')).toBeLessThan(top('Respond'));
});

test('a condition flow built in the Workshop answers on both branches', async ({ page }) => {
  const { stack } = suite();
  const { projectId, subdomain } = await signedInProject(page, stack);
  await newEndpoint(page, projectId);
  const form = settings(page);
  await node(page, 'GET /endpoint-1').click();
  await form.getByRole('textbox', { name: 'Path' }).fill('/size');
  await form.getByRole('button', { name: 'Add query parameter' }).click();
  await form.getByRole('textbox', { name: 'Parameter key' }).fill('n');
  await form.getByRole('textbox', { name: 'Default value' }).fill('0');

  await addFromPool(page, 'Condition');
  await typeWithReference(form.getByRole('textbox', { name: 'Left value' }), '', 'params.n');
  await form.getByRole('combobox', { name: 'Operator' }).selectOption('gt');
  await form.getByRole('textbox', { name: 'Right value' }).click();
  await page.keyboard.type('10');
  for (const size of ['big', 'small']) {
    // The first block added after a condition takes its true branch, the next one its false branch.
    await node(page, 'Condition').click();
    await addFromPool(page, 'Respond');
    await form.getByRole('button', { name: 'Advanced' }).click();
    await form.getByRole('textbox', { name: 'JSON Response' }).fill(`{"size": "${size}", "n": "{params.n}"}`);
  }
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();

  const host = `${subdomain}.localhost:${stack.gatewayPort}`;
  expect((await request(`${stack.gatewayUrl}/size?n=50`, { host })).body).toEqual({ size: 'big', n: '50' });
  expect((await request(`${stack.gatewayUrl}/size?n=3`, { host })).body).toEqual({ size: 'small', n: '3' });
});

test('blocks dragged from the pool, keyboard duplicate and paste, / to search, and leaving with unsaved changes asks first', async ({ page, consoleErrors }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await newEndpoint(page, projectId);
  const pool = page.getByRole('complementary', { name: 'Action pool' });

  await pool.getByRole('button', { name: 'Manipulate Text', exact: true }).dragTo(page.getByRole('region', { name: 'Canvas' }), { targetPosition: { x: 120, y: 300 } });
  await node(page, 'Manipulate Text · text1').click();
  await page.keyboard.press('ControlOrMeta+d');
  await node(page, 'Manipulate Text · text2').waitFor();
  await page.keyboard.press('ControlOrMeta+c');
  await page.keyboard.press('ControlOrMeta+v');
  await node(page, 'Manipulate Text · text3').waitFor();

  await page.keyboard.press('/');
  expect(await pool.getByRole('searchbox', { name: 'Search blocks' }).evaluate((box) => box === box.ownerDocument.activeElement)).toBe(true);
  await page.keyboard.type('regex');
  expect(await pool.getByRole('button').allTextContents()).toEqual([expect.stringMatching(/^Match Regex/)]);

  await page.getByRole('navigation').getByRole('link', { name: 'Logs' }).click();
  const question = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await question.getByRole('button', { name: 'Stay' }).click();
  await question.waitFor({ state: 'detached' });
  expect(page.url()).toMatch(/\/endpoints\/[^/]+$/);
  await page.getByRole('navigation').getByRole('link', { name: 'Logs' }).click();
  await question.getByRole('button', { name: 'Leave' }).click();
  await page.waitForURL(/\/logs/);
  expect(consoleErrors).toEqual([]);
});

test('Versions lists what was deployed, shows what the draft changes, and rolls back; Export downloads the draft', async ({ page }) => {
  const { stack } = suite();
  const { projectId, subdomain, token } = await signedInProject(page, stack);
  const api = `${stack.controlPlaneUrl}/v1/projects/${projectId}/endpoints`;
  const at = { x: 0, y: 0 };
  const flow = {
    nodes: [{ id: 'start', type: 'start', position: at }, { id: 'r', type: 'respond', position: { x: 240, y: 0 }, config: { body: { v: 1 } } }],
    edges: [{ id: 'e', source: 'start', target: 'r' }],
  };
  const created = await request(api, { method: 'POST', token, body: { name: 'Versioned', method: 'GET', path: '/v', auth: 'none', query_params: [], flow } });
  expect((await request(`${api}/${created.body.id}/deploy`, { method: 'POST', token })).status).toBe(200);
  const host = `${subdomain}.localhost:${stack.gatewayPort}`;

  await page.goto(`/projects/${projectId}/endpoints/${created.body.id}`);
  await node(page, 'Respond').click();
  await settings(page).getByRole('button', { name: 'Advanced' }).click();
  await settings(page).getByRole('textbox', { name: 'JSON Response' }).fill('{"v": 2}');
  await page.getByRole('status').filter({ hasText: 'Live · changes not deployed' }).waitFor();
  await page.keyboard.press('ControlOrMeta+Enter');
  // Deploy saves first; the tag reads Live once the saved draft is deployed, which the announcement confirms.
  await page.getByRole('status').filter({ hasText: 'Deployed: version 2 is live' }).waitFor();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
  expect((await request(`${stack.gatewayUrl}/v`, { host })).body).toEqual({ v: 2 });

  await page.getByRole('button', { name: 'Versions' }).click();
  await page.getByRole('button', { name: 'Changes in the draft since version 1' }).click();
  await page.getByText('Respond: settings changed').waitFor();
  await page.getByRole('button', { name: 'Roll back to version 1' }).click();
  await page.getByRole('status').filter({ hasText: 'Live · changes not deployed' }).waitFor();
  expect((await request(`${stack.gatewayUrl}/v`, { host })).body).toEqual({ v: 1 });

  // Export downloads the draft in the import format.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  const exported = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  expect(exported).toMatchObject({ flowgate_export: 1, endpoint: { name: 'Versioned', method: 'GET', path: '/v', flow: { edges: flow.edges } } });
  expect(exported.endpoint.flow.nodes[1].config.body).toEqual({ v: 2 });
});

describe('diagnostics computed in the browser', () => {
  const at = { x: 0, y: 0 };
  const start = { id: 'start', type: 'start', position: at };
  const respond = (id: string) => ({ id, type: 'respond', position: at, config: { body: { ok: true } } });
  const chain = (...ids: string[]) => ids.slice(1).map((target, index) => ({ id: `e${index}`, source: ids[index], target }));
  const broken: Array<{ name: string; nodes: object[]; edges: object[]; method?: string }> = [
    { name: 'unknown variable', nodes: [start, { id: 'm', type: 'manipulate_text', position: at, config: { input: '{local.nope}', operation: 'uppercase', ref: 'x' } }, respond('r')], edges: chain('start', 'm', 'r') },
    { name: 'unconfigured parameter', nodes: [start, { id: 'r', type: 'respond', position: at, config: { body: { q: '{params.q}' } } }], edges: chain('start', 'r') },
    { name: 'unreachable block and missing field', nodes: [start, respond('r'), { id: 'lost', type: 'set_variable', position: at, config: { name: 'v' } }], edges: chain('start', 'r') },
    { name: 'condition without its right value', nodes: [start, { id: 'c', type: 'condition', position: at, config: { left: '1', operator: 'gt' } }, respond('a'), respond('b')], edges: [{ id: 'e1', source: 'start', target: 'c' }, { id: 'e2', source: 'c', target: 'a', sourceHandle: 'true' }, { id: 'e3', source: 'c', target: 'b', sourceHandle: 'false' }] },
    { name: 'loop', nodes: [start, { id: 'a', type: 'set_variable', position: at, config: { name: 'a', value: '1' } }, { id: 'b', type: 'set_variable', position: at, config: { name: 'b', value: '2' } }], edges: [...chain('start', 'a', 'b'), { id: 'back', source: 'b', target: 'a' }] },
    { name: 'regex the linear engine refuses', nodes: [start, { id: 'x', type: 'match_regex', position: at, config: { input: 'a', pattern: '(a)\\1', ref: 'm' } }, respond('r')], edges: chain('start', 'x', 'r') },
    { name: 'a connection after Respond, a relative URL', nodes: [start, respond('r'), { id: 'h', type: 'http_request', position: at, config: { name: 'api', url: '/relative' } }], edges: chain('start', 'r', 'h') },
    { name: 'body read by a GET (warning only)', nodes: [start, { id: 'r', type: 'respond', position: at, config: { body: { b: '{body.x}' } } }], edges: chain('start', 'r') },
  ];

  it('agree with what the server answers to Save and Deploy, on a set of broken flows', async () => {
    const { stack } = suite();
    const api = `${stack.controlPlaneUrl}/v1`;
    const signup = await request(`${api}/auth/signup`, { method: 'POST', body: { email: `agree-${stack.suffix}-${Date.now()}@example.test`, password: PASSWORD } });
    const token = signup.body.token;
    const project = await request(`${api}/projects`, { method: 'POST', token, body: { name: 'Agree', subdomain: `ag${stack.suffix}${Date.now() % 100000}` } });
    for (const [index, flow] of broken.entries()) {
      const doc = { nodes: flow.nodes, edges: flow.edges, settings: { kind: 'endpoint' as const, name: flow.name, method: 'GET' as const, path: `/case-${index}`, auth: 'none' as const, query_params: [] } } as unknown as WorkshopDoc;
      const inBrowser = diagnose(doc);
      expect({ flow: flow.name, found: inBrowser.length > 0 }).toEqual({ flow: flow.name, found: true });
      const saved = await request(`${api}/projects/${project.body.id}/endpoints`, { method: 'POST', token, body: saveBody(doc) });
      expect({ flow: flow.name, diagnostics: saved.body.diagnostics }).toEqual({ flow: flow.name, diagnostics: inBrowser });
      const deployed = await request(`${api}/projects/${project.body.id}/endpoints/${saved.body.id}/deploy`, { method: 'POST', token });
      const hasErrors = inBrowser.some((d) => d.severity === 'error');
      expect({ flow: flow.name, status: deployed.status }).toEqual({ flow: flow.name, status: hasErrors ? 400 : 200 });
      expect({ flow: flow.name, diagnostics: hasErrors ? deployed.body.details : deployed.body.diagnostics }).toEqual({ flow: flow.name, diagnostics: inBrowser });
    }
  });
});
