import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { request } from '@flowgate/testing';
import type { BrowserStack } from './stack';

export const PASSWORD = 'correct horse battery staple';

/** An account and a project made over HTTP, then signed in through the page (the Workshop is the subject). */
export async function signedInProject(page: Page, stack: BrowserStack): Promise<{ projectId: string; subdomain: string; token: string; email: string }> {
  const api = `${stack.controlPlaneUrl}/v1`;
  const email = `workshop-${randomBytes(5).toString('hex')}@example.test`;
  const signup = await request(`${api}/auth/signup`, { method: 'POST', body: { email, password: PASSWORD } });
  const subdomain = `ws${stack.suffix}${randomBytes(3).toString('hex')}`;
  const project = await request(`${api}/projects`, { method: 'POST', token: signup.body.token, body: { name: 'Workshop', subdomain } });
  if (project.status !== 201) throw new Error(`project not created: ${JSON.stringify(project.body)}`);
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/projects');
  return { projectId: project.body.id, subdomain, token: signup.body.token, email };
}

/** From the endpoint list: `New endpoint` opens the Workshop on a draft. */
export async function newEndpoint(page: Page, projectId: string): Promise<string> {
  await page.goto(`/projects/${projectId}/endpoints`);
  await page.getByRole('button', { name: 'New endpoint' }).click();
  await page.waitForURL(/\/endpoints\/[^/]+$/);
  await page.getByRole('complementary', { name: 'Action pool' }).waitFor();
  return page.url().split('/').pop() as string;
}

/** A canvas node by its accessible name ("Manipulate Text · loud", "GET /hello"). */
export const node = (page: Page, name: string): Locator => page.locator(`[aria-roledescription="node"][aria-label="${name}"]`);

export const settings = (page: Page): Locator => page.getByRole('complementary', { name: 'Block settings' });

/** Adds a block from the pool after the selected one (double-click), and waits for its form. */
export async function addFromPool(page: Page, label: string): Promise<void> {
  await page.getByRole('complementary', { name: 'Action pool' }).getByRole('button', { name: label, exact: true }).dblclick();
  await settings(page).getByRole('heading', { name: new RegExp(`^${label}`) }).waitFor();
}

/** Types text into a template field, then `{` and picks `reference` from the completion list. */
export async function typeWithReference(field: Locator, before: string, reference: string): Promise<void> {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Delete');
  if (before) await field.pressSequentially(before);
  await field.pressSequentially('{');
  const page = field.page();
  const option = page.getByRole('option', { name: new RegExp(`\\{${reference.replace(/\./g, '\\.')}\\}`) });
  await option.waitFor();
  await option.click();
}

export async function textOf(locator: Locator): Promise<string> {
  await locator.waitFor();
  return (await locator.textContent()) ?? '';
}

export interface FlowFixture {
  nodes: Array<{ id: string; type: string; position: { x: number; y: number }; config?: Record<string, unknown> }>;
  edges: Array<{ id: string; source: string; target: string; sourceHandle?: string }>;
}

/** Start, then `blocks` in a row 240 px apart, each connected to the one before. */
export function chainFlow(blocks: Array<{ id: string; type: string; config?: Record<string, unknown> }>): FlowFixture {
  const nodes = [{ id: 'start', type: 'start' }, ...blocks].map((block, index) => ({ ...block, position: { x: index * 240, y: 0 } }));
  return { nodes, edges: nodes.slice(1).map((block, index) => ({ id: `e${index + 1}`, source: nodes[index]!.id, target: block.id })) };
}

/** An endpoint `GET path` with this flow, made over HTTP, opened in the Workshop; its id. */
export async function openFlow(page: Page, stack: BrowserStack, project: { projectId: string; token: string }, path: string, flow: FlowFixture): Promise<string> {
  const created = await request(`${stack.controlPlaneUrl}/v1/projects/${project.projectId}/endpoints`, {
    method: 'POST',
    token: project.token,
    body: { name: path.slice(1), method: 'GET', path, auth: 'none', query_params: [], flow },
  });
  if (created.status !== 201) throw new Error(`endpoint not created: ${JSON.stringify(created.body)}`);
  await page.goto(`/projects/${project.projectId}/endpoints/${created.body.id}`);
  await node(page, `GET ${path}`).waitFor();
  return created.body.id;
}

/** A connection drawn on the canvas, by the ids of its two blocks. */
export const connection = (page: Page, source: string, target: string): Locator => page.locator(`[aria-roledescription="edge"][aria-label="Edge from ${source} to ${target}"]`);

/** The centre of an element in the window. */
export async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('the element is not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A block's output handle (right) or input handle (left). */
export const handle = (block: Locator, side: 'output' | 'input'): Locator => block.locator(`[data-handlepos="${side === 'output' ? 'right' : 'left'}"]`).first();
