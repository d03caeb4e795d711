/**
 * A session that ends while the Workshop holds unsaved edits: Save sends the user to sign in,
 * which says why, and the edits come back afterwards (kept in the browser, offered, restored).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { request } from '@flowgate/testing';
import { browserSuite } from './support/browser-test';
import { addFromPool, newEndpoint, node, PASSWORD, signedInProject } from './support/workshop-steps';

const { suite, test } = browserSuite();

/** A new endpoint with an unsaved Respond block, and a session that has ended (its cookie gone) before Save is pressed. */
async function saveAfterSessionEnded(page: Page, context: BrowserContext) {
  const signedIn = await signedInProject(page, suite().stack);
  const endpointId = await newEndpoint(page, signedIn.projectId);
  await node(page, 'GET /endpoint-1').click();
  await addFromPool(page, 'Respond');
  await context.clearCookies();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/\/login\?next=/);
  return { ...signedIn, endpointId };
}

async function signInAgain(page: Page, email: string, endpointId: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(new RegExp(`/endpoints/${endpointId}$`));
}

test('Save with an expired session keeps the draft through the sign-in, says why, and offers it back', async ({ page, context }) => {
  const { stack } = suite();
  // The session cookie goes, as when a session expires: the Save answers 401.
  const { projectId, token, email, endpointId } = await saveAfterSessionEnded(page, context);
  await page.getByRole('status').filter({ hasText: 'Your session ended' }).waitFor();
  await signInAgain(page, email, endpointId);
  const offer = page.getByRole('region', { name: 'Unsaved edits' });
  await offer.getByRole('button', { name: 'Restore unsaved edits' }).click();
  await node(page, 'Respond').waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').getByText('Saved').waitFor();
  const saved = await request(`${stack.controlPlaneUrl}/v1/projects/${projectId}/endpoints/${endpointId}`, { token });
  expect(saved.body.flow.nodes.map((block: { type: string }) => block.type)).toEqual(['start', 'respond']);

  // Saved: nothing is offered any more.
  await page.reload();
  await node(page, 'Respond').waitFor();
  expect(await offer.count()).toBe(0);
});

test('a kept draft can be discarded: the saved flow stays as it was', async ({ page, context }) => {
  const { email, endpointId } = await saveAfterSessionEnded(page, context);
  await signInAgain(page, email, endpointId);
  await page.getByRole('region', { name: 'Unsaved edits' }).getByRole('button', { name: 'Discard them' }).click();
  expect(await node(page, 'Respond').count()).toBe(0);
  await page.reload();
  await node(page, 'GET /endpoint-1').waitFor();
  expect(await page.getByRole('region', { name: 'Unsaved edits' }).count()).toBe(0);
  // Signing out is not a session that ended: the sign-in page says nothing about one.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Flowgate' }).waitFor();
  expect(await page.getByText('Your session ended').count()).toBe(0);
});
