import { randomBytes } from 'node:crypto';
import { SecretBox } from '@flowgate/platform';
import { PinoLogger } from 'nestjs-pino';
import { PublicationService } from '../publication/publication.service';
import { type TestAccount, type TestApp, publishedProject, startTestApp } from '../testing/test-app';
import { UndecryptableSecretsCheck } from './undecryptable-secrets.check';

/**
 * Integration secrets after the encryption key changed (a new clone's dev secrets, a mistyped
 * or rotated FLOWGATE_ENCRYPTION_KEY): the control plane starts, names what it cannot decrypt,
 * and serves everything else; FLOWGATE_ENCRYPTION_KEY_PREVIOUS rotates the key.
 */
describe('integration secrets across encryption keys (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let owner: TestAccount;
  const others: TestApp[] = [];
  const anthropicKey = 'sk-ant-test-0123456789-abcd';
  const sendgridKey = 'SG.test-0123456789-wxyz';

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signup();
  });
  afterAll(async () => {
    for (const other of others) await other.close();
    await t.close();
  });

  /** Another control plane on the same database and Redis, e.g. started with other keys. */
  const startOther = async (keys?: { encryptionKey: string; previousEncryptionKey?: string }) => {
    const other = await startTestApp((config) => ({ ...config, ...keys }));
    others.push(other);
    return other;
  };

  async function projectWithBothIntegrations() {
    const project = await t.createProject(owner);
    const base = `/v1/projects/${project.id}/integrations`;
    await t.http().put(`${base}/text-generation`).set(owner.auth).send({ provider: 'anthropic', api_key: anthropicKey }).expect(200);
    await t.http().put(`${base}/email`).set(owner.auth).send({ provider: 'sendgrid', api_key: sendgridKey, verified_domains: ['shop.example'] }).expect(200);
    return { project, base };
  }

  it('starts with a secret no key opens, names it once, publishes it as not configured and serves everything else', async () => {
    const { project, base } = await projectWithBothIntegrations();
    const healthy = await projectWithBothIntegrations();
    // This row was sealed with a key this installation no longer has.
    const foreign = new SecretBox(randomBytes(32).toString('hex')).encrypt(anthropicKey);
    await t.prisma.integration.updateMany({ where: { projectId: project.id, kind: 'text_generation' }, data: { secretEncrypted: foreign } });

    const logged = jest.spyOn(PinoLogger.prototype, 'error');
    let restarted: TestApp;
    try {
      restarted = await startOther();
      const report = logged.mock.calls.find(([, message]) => typeof message === 'string' && message.includes('cannot be decrypted'));
      expect(report?.[1]).toContain('FLOWGATE_ENCRYPTION_KEY_PREVIOUS');
      expect((report?.[0] as { integrations: unknown[] }).integrations).toContainEqual({
        project_id: project.id,
        subdomain: project.subdomain,
        kind: 'text_generation',
      });
      expect((report?.[0] as { integrations: unknown[] }).integrations).not.toContainEqual(expect.objectContaining({ project_id: healthy.project.id }));
    } finally {
      logged.mockRestore();
    }
    expect(await restarted.app.get(UndecryptableSecretsCheck).find()).toContainEqual({ project_id: project.id, subdomain: project.subdomain, kind: 'text_generation' });

    // Publishing (what start-up does for every project) no longer fails on it.
    await expect(restarted.app.get(PublicationService).republishProject(project.id)).resolves.toBe(true);
    const published = await publishedProject(t.redis, project.id);
    expect(published?.integrations.text_generation).toBeNull();
    const box = new SecretBox(t.config.encryptionKey);
    expect(box.decrypt(published!.integrations.email!.api_key_encrypted)).toBe(sendgridKey);

    const list = await restarted.http().get(base).set(owner.auth).expect(200);
    expect(list.body.items.map((item: { kind: string; needs_new_secret: boolean }) => [item.kind, item.needs_new_secret])).toEqual([
      ['text-generation', true],
      ['email', false],
    ]);
    const other = await restarted.http().get(`${healthy.base}/text-generation`).set(owner.auth).expect(200);
    expect(other.body.needs_new_secret).toBe(false);
    await restarted.http().get('/readyz').expect(200);

    // Keeping the unreadable secret is refused; a new one turns the integration back on.
    const keep = await restarted.http().put(`${base}/text-generation`).set(owner.auth).send({ provider: 'anthropic', default_model: 'x' }).expect(400);
    expect(keep.body.details).toEqual([{ path: 'api_key', message: expect.stringContaining('can no longer be decrypted') }]);
    const saved = await restarted.http().put(`${base}/text-generation`).set(owner.auth).send({ provider: 'anthropic', api_key: anthropicKey }).expect(200);
    expect(saved.body.needs_new_secret).toBe(false);
    expect(box.decrypt((await publishedProject(t.redis, project.id))!.integrations.text_generation!.api_key_encrypted)).toBe(anthropicKey);
  });

  it('rotates: with the old key as FLOWGATE_ENCRYPTION_KEY_PREVIOUS, secrets open and are sealed again with the new key when published', async () => {
    const { project, base } = await projectWithBothIntegrations();
    const before = await t.prisma.integration.findMany({ where: { projectId: project.id }, orderBy: { kind: 'asc' } });
    const newKey = randomBytes(32).toString('hex');
    const rotated = await startOther({ encryptionKey: newKey, previousEncryptionKey: t.config.encryptionKey });

    // The previous key alone already serves: nothing needs a new secret.
    const list = await rotated.http().get(base).set(owner.auth).expect(200);
    expect(list.body.items.map((item: { needs_new_secret: boolean }) => item.needs_new_secret)).toEqual([false, false]);

    await rotated.app.get(PublicationService).republishProject(project.id);
    const after = await t.prisma.integration.findMany({ where: { projectId: project.id }, orderBy: { kind: 'asc' } });
    const newBox = new SecretBox(newKey);
    const oldBox = new SecretBox(t.config.encryptionKey);
    expect(after.map((row) => newBox.decrypt(row.secretEncrypted))).toEqual([anthropicKey, sendgridKey]);
    expect(after.map((row) => oldBox.open(row.secretEncrypted))).toEqual([null, null]);
    // Rotation is not an edit: the times the user sees stay.
    expect(after.map((row) => row.updatedAt)).toEqual(before.map((row) => row.updatedAt));
    const published = await publishedProject(t.redis, project.id);
    expect(newBox.decrypt(published!.integrations.text_generation!.api_key_encrypted)).toBe(anthropicKey);

    // Once rotated, the new key alone opens everything.
    const withoutPrevious = await startOther({ encryptionKey: newKey });
    const again = await withoutPrevious.http().get(base).set(owner.auth).expect(200);
    expect(again.body.items.map((item: { needs_new_secret: boolean }) => item.needs_new_secret)).toEqual([false, false]);
  });
});
