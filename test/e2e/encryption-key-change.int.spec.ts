// The reproduction of "a second checkout kills the control plane": a real control-plane process
// starts over a database holding an integration secret that its key cannot decrypt. It must
// start, say once which integration and why, publish that integration as not configured and
// everything else as before.
import { randomBytes } from 'node:crypto';
import { SecretBox } from '@flowgate/platform';
import { publishedProject, startTestApp, type TestAccount, type TestApp } from '../../apps/control-plane/src/testing/test-app';
import { type AppProcess, freePort, spawnApp, waitFor, waitReady } from '@flowgate/testing';

describe('control plane start-up with an undecryptable integration secret (real process)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let controlPlane: AppProcess | undefined;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
  });
  afterAll(async () => {
    await controlPlane?.stop();
    await t.close();
  });

  it('starts, names the integration once, leaves it unpublished and publishes the rest', async () => {
    const project = await t.createProject(owner);
    const base = `/v1/projects/${project.id}/integrations`;
    await t.http().put(`${base}/text-generation`).set(owner.auth).send({ provider: 'anthropic', api_key: 'sk-ant-test-0123456789-abcd' }).expect(200);
    await t.http().put(`${base}/email`).set(owner.auth).send({ provider: 'sendgrid', api_key: 'SG.test-0123456789-wxyz', verified_domains: [] }).expect(200);
    const foreign = new SecretBox(randomBytes(32).toString('hex')).encrypt('sk-ant-test-0123456789-abcd');
    await t.prisma.integration.updateMany({ where: { projectId: project.id, kind: 'text_generation' }, data: { secretEncrypted: foreign } });
    // Redis holds the state, so a starting control plane republishes only what differs
    // (docs/scaling.md): the project's revision moves ahead of what was published, as a change
    // made by another control plane would leave it.
    await t.prisma.project.update({ where: { id: project.id }, data: { revision: { increment: 1 } } });

    const [port, internalPort] = [await freePort(), await freePort()];
    controlPlane = spawnApp('control-plane', { CONTROL_PLANE_PORT: String(port), CONTROL_PLANE_INTERNAL_PORT: String(internalPort), LOG_LEVEL: 'warn' });
    await waitReady(controlPlane, `http://127.0.0.1:${port}/readyz`, 90_000);
    // The reconcile right after start-up rewrites the project that differs.
    const running = controlPlane;
    await waitFor(() => running.output().includes('cannot be decrypted'), 'the start-up reconcile to report the integration', 90_000);

    const reports = controlPlane.output().split('\n').filter((line) => line.includes('cannot be decrypted'));
    expect(reports).toHaveLength(1);
    const report = JSON.parse(reports[0]!) as { integrations: unknown[]; msg: string };
    expect(report.integrations).toContainEqual({ project_id: project.id, subdomain: project.subdomain, kind: 'text_generation' });
    expect(report.msg).toContain('the key changed');
    expect(controlPlane.output()).not.toContain('failed to start');

    const published = await waitFor(async () => {
      const document = await publishedProject(t.redis, project.id);
      return document?.integrations.text_generation === null ? document : undefined;
    }, 'the project to be republished without the integration', 30_000);
    expect(published?.integrations.text_generation).toBeNull();
    expect(new SecretBox(t.config.encryptionKey).decrypt(published!.integrations.email!.api_key_encrypted)).toBe('SG.test-0123456789-wxyz');
    expect(await controlPlane.stop()).toBe(0);
    controlPlane = undefined;
  }, 120_000);
});
