/**
 * Templates: `Start from a template` creates a working endpoint through the page, and every
 * template shipped with the dashboard deploys and answers through the real gateway.
 */
import path from 'node:path';
import { request } from '@flowgate/testing';
import { TEMPLATES } from '../../apps/dashboard/src/features/endpoints/templates';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';
import { newEndpoint, node, signedInProject } from './support/workshop-steps';

const { suite, test } = browserSuite();

test('Start from a template → Hello opens a working flow in the Workshop, which deploys and answers', async ({ page, consoleErrors }) => {
  const { stack } = suite();
  const { projectId, subdomain } = await signedInProject(page, stack);
  await page.goto(`/projects/${projectId}/endpoints`);
  await page.getByText('No endpoints yet').waitFor();
  await page.getByRole('button', { name: 'Start from a template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start from a template' });
  expect(await dialog.getByRole('button', { name: 'Hello', exact: true }).getAttribute('aria-describedby')).toBeTruthy();
  await dialog.getByRole('button', { name: 'Hello', exact: true }).click();
  await page.waitForURL(/\/endpoints\/[^/]+$/);
  await node(page, 'GET /hello').waitFor();
  await node(page, 'Respond').waitFor();
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
  const answer = await request(`${stack.gatewayUrl}/hello?name=Ada`, { host: `${subdomain}.localhost:${stack.gatewayPort}` });
  expect(answer).toMatchObject({ status: 200, body: { message: 'Hello Ada' } });
  expect(consoleErrors).toEqual([]);
});

it('every template deploys (endpoints and schedules) and its endpoints answer their example request through the gateway', async () => {
  const { stack } = suite();
  const api = `${stack.controlPlaneUrl}/v1`;
  const signup = await request(`${api}/auth/signup`, { method: 'POST', body: { email: `templates-${stack.suffix}@example.test`, password: 'correct horse battery staple' } });
  const token = signup.body.token;
  for (const [index, template] of TEMPLATES.entries()) {
    const subdomain = `tpl${index}${stack.suffix}`;
    const project = await request(`${api}/projects`, { method: 'POST', token, body: { name: template.title, subdomain } });
    const projectApi = `${api}/projects/${project.body.id}`;
    for (const table of template.tables ?? []) expect((await request(`${projectApi}/tables`, { method: 'POST', token, body: table })).status).toBe(201);
    if (template.needs?.includes('API_TOKEN')) await request(`${projectApi}/secrets/API_TOKEN`, { method: 'PUT', token, body: { value: 'test-token' } });
    /** Creates one of the template's drafts and deploys it: both answer without a problem. */
    const createAndDeploy = async <T extends { name: string }>(kind: 'endpoints' | 'schedules', body: T) => {
      const created = await request(`${projectApi}/${kind}`, { method: 'POST', token, body });
      const deployed = created.status === 201 ? await request(`${projectApi}/${kind}/${created.body.id}/deploy`, { method: 'POST', token }) : created;
      expect({ template: template.title, made: body.name, created: created.status, deployed: deployed.status, problems: deployed.body.details }).toEqual({
        template: template.title,
        made: body.name,
        created: 201,
        deployed: 200,
        problems: undefined,
      });
    };
    for (const input of template.endpoints) await createAndDeploy('endpoints', input);
    for (const input of template.schedules ?? []) await createAndDeploy('schedules', { ...input, timezone: 'Europe/Berlin' });
    if (!template.tryIt) continue;
    const { method, path, body, answer } = template.tryIt;
    const response = await request(`${stack.gatewayUrl}${path}`, { method, body, host: `${subdomain}.localhost:${stack.gatewayPort}` });
    expect({ template: template.title, status: Math.floor(response.status / 100) }).toEqual({ template: template.title, status: 2 });
    expect(response.body).toMatchObject(answer);
    expect(Object.keys(response.body).length).toBeGreaterThan(0);
  }
}, 120_000);

test('a new endpoint shows the three steps to a live endpoint until Got it, and never again in this browser', async ({ page }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await newEndpoint(page, projectId);
  const hint = page.getByRole('region', { name: 'Getting started' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'workshop-first-run-1024.png') });
  expect(await hint.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^Add blocks/), expect.stringMatching(/^Fill in their settings/), expect.stringMatching(/^Deploy/)]);
  await hint.getByRole('button', { name: 'Got it' }).click();
  await hint.waitFor({ state: 'detached' });
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-2').waitFor();
  expect(await hint.count()).toBe(0);
});
