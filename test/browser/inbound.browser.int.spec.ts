/**
 * The body an endpoint accepts, set in the Workshop as a person would: fields first, then the
 * raw JSON Schema, the `{body.` completion offering the declared fields, Deploy, and the gateway
 * refusing a body that does not match. And every group of the endpoint's settings filled in
 * (typed query parameters, Body, Webhook signature, Cache, Expose as MCP tool), kept after a
 * Save. Screenshots (light and dark; the groups also at 1440 and 1280 px) go to
 * .cache/browser-screenshots/inbound-*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { request, waitFor } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';
import { addFromPool, newEndpoint, node, settings, signedInProject, typeWithReference } from './support/workshop-steps';

const { suite, test } = browserSuite();

async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `inbound-${name}-${colorScheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a body schema edited as fields and as JSON is enforced by the gateway once deployed', async ({ page }) => {
  const { stack } = suite();
  const { projectId, subdomain } = await signedInProject(page, stack);
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  const form = settings(page);
  await form.getByRole('combobox', { name: 'Method' }).selectOption('POST');
  await form.getByRole('textbox', { name: 'Path' }).fill('/orders');
  await node(page, 'POST /orders').waitFor();

  // Fields: customer (text, required), then a list of items.
  const body = form.getByRole('group', { name: 'Body' });
  await body.getByRole('button', { name: 'Add field' }).click();
  await body.getByRole('textbox', { name: 'Field name' }).fill('customer');
  await body.getByRole('checkbox', { name: 'Required' }).check();
  await body.getByRole('button', { name: 'Add field' }).click();
  await body.getByRole('textbox', { name: 'Field name' }).nth(1).fill('items');
  await body.getByRole('combobox', { name: 'Type' }).nth(1).selectOption('list');
  await body.getByRole('combobox', { name: 'Item type' }).selectOption('integer');
  await screenshots(page, 'body-fields');

  // The same schema as JSON; an edit there (a minimum) comes back to the fields.
  await body.getByRole('button', { name: 'Edit as JSON Schema' }).click();
  const json = body.getByRole('textbox', { name: 'JSON Schema' });
  expect(JSON.parse(await json.inputValue())).toEqual({
    type: 'object',
    properties: { customer: { type: 'string' }, items: { type: 'array', items: { type: 'integer' } } },
    required: ['customer'],
  });
  await json.fill(JSON.stringify({ type: 'object', required: ['customer'], properties: { customer: { type: 'string', minLength: 2 }, items: { type: 'array', items: { type: 'integer', minimum: 1 } } } }, null, 2));
  await screenshots(page, 'body-json');
  await body.getByRole('button', { name: 'Edit as JSON Schema' }).click();
  expect(await body.getByRole('textbox', { name: 'Field name' }).first().inputValue()).toBe('customer');

  // The declared fields complete after `{body.`.
  await addFromPool(page, 'Respond');
  await form.getByRole('button', { name: 'Add entry' }).click();
  await form.getByRole('textbox', { name: 'Key' }).fill('customer');
  await typeWithReference(form.getByRole('textbox', { name: 'Value' }), '', 'body.customer');

  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();

  const host = `${subdomain}.localhost:${stack.gatewayPort}`;
  const accepted = await waitFor(async () => {
    const response = await request(`${stack.gatewayUrl}/orders`, { method: 'POST', host, body: { customer: 'Ada', items: [2] } });
    return response.status === 200 ? response : undefined;
  }, 'the gateway to serve the deployed endpoint', 20_000, 100);
  expect(accepted?.body).toEqual({ customer: 'Ada' });
  const refused = await request(`${stack.gatewayUrl}/orders`, { method: 'POST', host, body: { customer: 'A', items: [0] } });
  expect(refused.status).toBe(400);
  expect(refused.body.code).toBe('validation_failed');
  expect(refused.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['body.customer', 'body.items.0']);
});

async function groupShots(page: Page, group: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await group.screenshot({ path: path.join(SCREENSHOT_DIR, `inbound-group-${name}-${width}-${colorScheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('every group of the endpoint settings filled in is kept by Save', async ({ page }) => {
  const { stack } = suite();
  const { projectId, token } = await signedInProject(page, stack);
  const secret = await request(`${stack.controlPlaneUrl}/v1/projects/${projectId}/secrets/STRIPE_SIGNING`, { method: 'PUT', token, body: { value: 'whsec_test' } });
  expect(secret.status).toBeLessThan(300);
  const endpointId = await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();
  const form = settings(page);

  const params = form.getByRole('group', { name: 'Query parameters' });
  await params.getByRole('button', { name: 'Add query parameter' }).click();
  await params.getByRole('textbox', { name: 'Parameter key' }).fill('limit');
  await params.getByRole('combobox', { name: 'Type' }).selectOption('integer');
  await params.getByRole('textbox', { name: 'Default value' }).fill('20');
  await params.getByRole('button', { name: 'Add query parameter' }).click();
  await params.getByRole('textbox', { name: 'Parameter key' }).nth(1).fill('sort');
  await params.getByRole('combobox', { name: 'Type' }).nth(1).selectOption('enum');
  await params.getByRole('textbox', { name: 'Values' }).fill('newest, oldest');
  // An enum's default is picked from its values.
  await params.getByRole('combobox', { name: 'Default value' }).selectOption('newest');
  await groupShots(page, params, 'query-parameters');

  const signature = form.getByRole('group', { name: 'Webhook signature' });
  await signature.getByRole('combobox', { name: 'Signature scheme' }).selectOption('Stripe');
  await expect(signature.getByRole('combobox', { name: 'Signing secret' }).inputValue()).resolves.toBe('STRIPE_SIGNING');
  await groupShots(page, signature, 'webhook-signature');

  const cache = form.getByRole('group', { name: 'Cache' });
  await cache.getByRole('switch', { name: 'Cache answers' }).check();
  await cache.getByRole('spinbutton', { name: 'Time to live (s)' }).fill('120');
  await cache.getByRole('textbox', { name: 'Vary by headers' }).fill('Accept-Language');
  await groupShots(page, cache, 'cache');

  const mcp = form.getByRole('group', { name: 'MCP' });
  await mcp.getByRole('switch', { name: 'Expose as MCP tool' }).check();
  await mcp.getByRole('textbox', { name: 'Tool description' }).fill('Lists the newest orders');
  await groupShots(page, mcp, 'mcp');

  await page.keyboard.press('ControlOrMeta+s');
  await page.getByRole('status').getByText('Saved').waitFor();
  const saved = (await request(`${stack.controlPlaneUrl}/v1/projects/${projectId}/endpoints/${endpointId}`, { token })).body;
  expect(saved.query_params).toEqual([
    expect.objectContaining({ key: 'limit', type: 'integer', default: '20' }),
    expect.objectContaining({ key: 'sort', type: 'enum', values: ['newest', 'oldest'], default: 'newest' }),
  ]);
  expect(saved.signature).toEqual(expect.objectContaining({ scheme: 'stripe', secret: 'STRIPE_SIGNING', tolerance_s: 300 }));
  expect(saved.cache).toEqual(expect.objectContaining({ ttl_s: 120, vary_headers: ['Accept-Language'], per_key: false }));
  expect(saved.mcp).toEqual({ enabled: true, description: 'Lists the newest orders' });

  // A POST endpoint's body: a field, an object with a field of its own, a list of numbers.
  await form.getByRole('combobox', { name: 'Method' }).selectOption('POST');
  const body = form.getByRole('group', { name: 'Body' });
  await body.getByRole('button', { name: 'Add field' }).click();
  await body.getByRole('textbox', { name: 'Field name' }).fill('customer');
  await body.getByRole('combobox', { name: 'Type' }).selectOption('object');
  await body.getByRole('list', { name: 'Fields of body.customer' }).getByRole('button', { name: 'Add field' }).click();
  await body.getByRole('list', { name: 'Body fields' }).getByRole('button', { name: 'Add field', exact: true }).last().click();
  const fieldNames = body.getByRole('textbox', { name: 'Field name' });
  await fieldNames.last().fill('items');
  await body.getByRole('combobox', { name: 'Type' }).last().selectOption('list');
  await body.getByRole('combobox', { name: 'Item type' }).selectOption('number');
  await groupShots(page, body, 'body');
  await body.getByRole('button', { name: 'Edit as JSON Schema' }).click();
  await groupShots(page, body, 'body-json');
});
