import { SecretBox } from '@flowgate/platform';
import { type TestAccount, type TestApp, publishedProject, useTestApp } from '../testing/test-app';

describe('integrations (real PostgreSQL and Redis)', () => {
  let t: TestApp;
  let owner: TestAccount;
  useTestApp((app, account) => ([t, owner] = [app, account]));

  const secret = 'sk-ant-test-0123456789-abcd';

  it('stores the text-generation secret encrypted, shows it masked, publishes it re-encrypted', async () => {
    const project = await t.createProject(owner);
    const url = `/v1/projects/${project.id}/integrations/text-generation`;
    const put = await t.http().put(url).set(owner.auth).send({ provider: 'anthropic', api_key: secret, default_model: 'claude-x' }).expect(200);
    expect(put.body).toEqual({
      kind: 'text-generation',
      provider: 'anthropic',
      api_key_masked: '••••abcd',
      needs_new_secret: false,
      default_model: 'claude-x',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const get = await t.http().get(url).set(owner.auth).expect(200);
    expect(get.body).toEqual(put.body);
    expect(JSON.stringify(get.body)).not.toContain(secret);

    const stored = await t.prisma.integration.findFirstOrThrow({ where: { projectId: project.id } });
    expect(stored.secretEncrypted).not.toContain(secret);
    const box = new SecretBox(t.config.encryptionKey);
    expect(box.decrypt(stored.secretEncrypted)).toBe(secret);

    const published = await publishedProject(t.redis, project.id);
    expect(published?.revision).toBe(2);
    const text = published?.integrations.text_generation;
    expect(text).toEqual({ provider: 'anthropic', api_key_encrypted: expect.any(String), default_model: 'claude-x' });
    expect(JSON.stringify(published)).not.toContain(secret);
    expect(box.decrypt(text!.api_key_encrypted)).toBe(secret);
  });

  it('requires api_key the first time, keeps the stored one when omitted later', async () => {
    const project = await t.createProject(owner);
    const url = `/v1/projects/${project.id}/integrations/text-generation`;
    const first = await t.http().put(url).set(owner.auth).send({ provider: 'anthropic' }).expect(400);
    expect(first.body.details).toEqual([{ path: 'api_key', message: expect.any(String) }]);
    expect(await t.prisma.integration.count({ where: { projectId: project.id } })).toBe(0);

    await t.http().put(url).set(owner.auth).send({ provider: 'anthropic', api_key: secret }).expect(200);
    const second = await t.http().put(url).set(owner.auth).send({ provider: 'anthropic', default_model: 'other' }).expect(200);
    expect(second.body).toMatchObject({ api_key_masked: '••••abcd', default_model: 'other' });
    const published = await publishedProject(t.redis, project.id);
    expect(new SecretBox(t.config.encryptionKey).decrypt(published!.integrations.text_generation!.api_key_encrypted)).toBe(secret);
  });

  it('configures email with verified domains, lists and removes integrations', async () => {
    const project = await t.createProject(owner);
    const base = `/v1/projects/${project.id}/integrations`;
    const put = await t.http()
      .put(`${base}/email`)
      .set(owner.auth)
      .send({ provider: 'sendgrid', api_key: 'SG.short', verified_domains: ['Shop.Example', 'shop.example', 'mail.shop.example'] })
      .expect(200);
    expect(put.body).toMatchObject({ kind: 'email', provider: 'sendgrid', api_key_masked: '••••', verified_domains: ['shop.example', 'mail.shop.example'] });
    expect((await publishedProject(t.redis, project.id))?.integrations.email).toMatchObject({
      provider: 'sendgrid',
      verified_domains: ['shop.example', 'mail.shop.example'],
    });
    const list = await t.http().get(base).set(owner.auth).expect(200);
    expect(list.body.items.map((i: { kind: string }) => i.kind)).toEqual(['email']);

    await t.http().delete(`${base}/email`).set(owner.auth).expect(200, { success: true, message: 'Integration removed' });
    expect((await publishedProject(t.redis, project.id))?.integrations.email).toBeNull();
    const missing = await t.http().get(`${base}/email`).set(owner.auth).expect(404);
    expect(missing.body.code).toBe('not_found');
    await t.http().delete(`${base}/email`).set(owner.auth).expect(404);
  });

  it.each([
    ['text-generation', { provider: 'openai', api_key: 'x' }, 'provider'],
    ['text-generation', { provider: 'anthropic', api_key: '' }, 'api_key'],
    ['email', { provider: 'sendgrid', api_key: 'x', verified_domains: ['not a domain'] }, 'verified_domains.0'],
    ['email', { provider: 'sendgrid', api_key: 'x', verified_domains: 'shop.example' }, 'verified_domains'],
  ])('refuses invalid %s settings %j with 400 naming %s', async (kind, body, path) => {
    const project = await t.createProject(owner);
    const response = await t.http().put(`/v1/projects/${project.id}/integrations/${kind}`).set(owner.auth).send(body).expect(400);
    expect(response.body.details).toContainEqual({ path, message: expect.any(String) });
  });

  it('answers an unknown kind with 404', async () => {
    const project = await t.createProject(owner);
    await t.http().get(`/v1/projects/${project.id}/integrations/sms`).set(owner.auth).expect(404);
    await t.http().put(`/v1/projects/${project.id}/integrations/sms`).set(owner.auth).send({}).expect(404);
  });
});
