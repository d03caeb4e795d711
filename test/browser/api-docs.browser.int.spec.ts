/**
 * The API docs page's MCP section against the real stack: the tools it lists are the ones the
 * gateway's MCP server lists (live endpoints with `Expose as MCP tool` on, one of them switched on
 * in the Workshop), and its copy buttons put the MCP URL and a client configuration on the
 * clipboard and say `Copied`. Screenshots (light and dark, 1440 and 1280 px) go to
 * .cache/browser-screenshots/api-docs-mcp-*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { call, request, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';
import { chainFlow, node, settings, signedInProject } from './support/workshop-steps';

const { suite, test } = browserSuite();


/** The tool names the gateway's MCP server lists for the project (`tools/list`, as an MCP client asks). */
async function gatewayTools(host: string): Promise<string[]> {
  const { gatewayUrl } = suite().stack;
  const answer = await call(gatewayUrl, host, '/_mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const tools = (answer.json as { result?: { tools?: Array<{ name: string }> } } | undefined)?.result?.tools ?? [];
  return tools.map((tool) => tool.name).sort();
}

/** Presses `Copy WHAT` in `section`: its snippet says `Copied`; the clipboard holds what was copied. */
async function copied(section: Locator, what: string): Promise<string> {
  const name = `Copy ${what}`;
  await section.getByRole('button', { name }).click();
  await section.getByRole('figure').filter({ has: section.page().getByRole('button', { name }) }).getByRole('status').getByText('Copied', { exact: true }).waitFor();
  return section.page().evaluate(() => navigator.clipboard.readText());
}

async function screenshots(page: Page, section: Locator): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await section.screenshot({ path: path.join(SCREENSHOT_DIR, `api-docs-mcp-${width}-${colorScheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the MCP section lists the tools the gateway serves and copies the MCP URL and a client configuration', async ({ page, context, consoleErrors }) => {
  const { stack } = suite();
  const { projectId, subdomain, token } = await signedInProject(page, stack);
  const api = `${stack.controlPlaneUrl}/v1/projects/${projectId}`;
  const endpoint = async (settings: Record<string, unknown>, deploy: boolean): Promise<string> => {
    const created = await request(`${api}/endpoints`, { method: 'POST', token, body: { auth: 'none', query_params: [], ...settings, flow: chainFlow([{ id: 'r1', type: 'respond', config: { body: { ok: true } } }]) } });
    if (created.status !== 201) throw new Error(`endpoint not created: ${JSON.stringify(created.body)}`);
    if (deploy) expect((await request(`${api}/endpoints/${created.body.id}/deploy`, { method: 'POST', token })).status).toBe(200);
    return created.body.id as string;
  };
  await endpoint({ name: 'List orders', method: 'GET', path: '/orders', auth: 'user', query_params: [{ key: 'limit', type: 'integer', required: true }], mcp: { enabled: true, description: 'Lists the newest orders' } }, true);
  const internal = await endpoint({ name: 'Internal', method: 'GET', path: '/internal' }, true);
  await endpoint({ name: 'Draft tool', method: 'GET', path: '/draft', mcp: { enabled: true } }, false);

  // The switch turned on in the Workshop and deployed makes a second tool.
  await page.goto(`/projects/${projectId}/endpoints/${internal}`);
  await node(page, 'GET /internal').click();
  await settings(page).getByRole('switch', { name: 'Expose as MCP tool' }).check();
  await settings(page).getByRole('textbox', { name: 'Tool description' }).fill('Says the service is up');
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();

  const host = `${subdomain}.localhost:${stack.gatewayPort}`;
  const served = await waitFor(async () => {
    const names = await gatewayTools(host);
    return names.length === 2 ? names : undefined;
  }, 'the gateway to serve both tools', 20_000, 100);
  expect(served).toEqual(['internal', 'listOrders']);

  await page.goto(`/projects/${projectId}/docs`);
  const mcp = page.getByRole('region', { name: 'MCP' });
  const tools = mcp.getByRole('list', { name: 'MCP tools' }).getByRole('listitem');
  await tools.first().waitFor();
  const listed = await tools.evaluateAll((items) => items.map((item) => item.querySelector('code')?.textContent ?? ''));
  expect(listed.sort()).toEqual(served);
  await mcp.getByRole('listitem').filter({ hasText: 'Says the service is up' }).waitFor();

  const base = (await request(`${api}`, { token })).body.base_url as string;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.dashboardUrl });
  expect(await copied(mcp, 'MCP URL')).toBe(`${base}/_mcp`);
  const configuration = JSON.parse(await copied(mcp, 'client configuration'));
  // A tool needs a key (List orders is for users), so the configuration carries the header to fill in.
  expect(configuration).toEqual({ mcpServers: { [subdomain]: { type: 'http', url: `${base}/_mcp`, headers: { Authorization: 'Bearer <your key>' } } } });

  await screenshots(page, mcp);
  expect(consoleErrors).toEqual([]);
});
