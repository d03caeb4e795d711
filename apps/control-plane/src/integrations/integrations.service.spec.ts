import { SecretBox } from '@flowgate/platform';
import { appErrorOf, fakeProjects, FakePublication, fakeWorld } from '../testing/fake-services';
import type { IntegrationKind, IntegrationRecord, IntegrationsRepository } from './integrations.repository';
import { IntegrationsService } from './integrations.service';

// The service with a fake repository (no PostgreSQL, no Redis): the secret goes in sealed and
// comes back masked, a missing or undecryptable secret is asked for again. integrations.int.spec.ts
// and encryption-keys.int.spec.ts run the same API for real.

class FakeIntegrations {
  readonly rows = new Map<IntegrationKind, IntegrationRecord>();
  async list() {
    return [...this.rows.values()];
  }
  async find(_projectId: string, kind: IntegrationKind) {
    return this.rows.get(kind) ?? null;
  }
  async upsert(_tx: unknown, _projectId: string, kind: IntegrationKind, data: Omit<IntegrationRecord, 'kind' | 'createdAt' | 'updatedAt'>) {
    const row: IntegrationRecord = { kind, ...data, createdAt: new Date('2026-11-20T10:00:00Z'), updatedAt: new Date('2026-11-20T10:00:00Z') };
    this.rows.set(kind, row);
    return row;
  }
  async delete(_tx: unknown, _projectId: string, kind: IntegrationKind) {
    return this.rows.delete(kind);
  }
}

function setUp(box = new SecretBox('k'.repeat(64)), integrations = new FakeIntegrations()) {
  const world = fakeWorld();
  const publication = new FakePublication(world);
  const service = new IntegrationsService(integrations as unknown as IntegrationsRepository, fakeProjects(world), publication.asService(), box);
  return { service, integrations, publication, box, world, owner: world.owner, project: world.project.id };
}

const email = (api_key?: string) => ({ kind: 'email' as const, provider: 'sendgrid' as const, api_key, verified_domains: ['shop.example', 'shop.example'] });

describe('IntegrationsService (fake repository)', () => {
  it('seals the API key, shows only its last four characters, and publishes the change', async () => {
    const { service, integrations, publication, box, owner, project } = setUp();
    const view = await service.put(owner, project, email('SG.abcdefghijkl-WXYZ'));

    expect(view).toMatchObject({ kind: 'email', provider: 'sendgrid', api_key_masked: '••••WXYZ', needs_new_secret: false, verified_domains: ['shop.example'] });
    expect(JSON.stringify(view)).not.toContain('SG.abc');
    const stored = integrations.rows.get('email')!;
    expect(stored.secretEncrypted).not.toContain('SG.abc');
    expect(box.decrypt(stored.secretEncrypted)).toBe('SG.abcdefghijkl-WXYZ');
    expect(publication.events).toEqual(['serving']);
  });

  it('shows nothing of a short key', async () => {
    const { service, owner, project } = setUp();
    expect((await service.put(owner, project, email('short-key'))).api_key_masked).toBe('••••');
  });

  it('keeps the stored key when a change sends none, and asks for one the first time', async () => {
    const { service, integrations, box, owner, project } = setUp();
    const first = await appErrorOf(service.put(owner, project, email()));
    expect(first.code).toBe('invalid_request');
    expect(first.details).toEqual([{ path: 'api_key', message: 'is required when the integration is first configured' }]);
    expect(integrations.rows.size).toBe(0);

    await service.put(owner, project, email('SG.abcdefghijkl-WXYZ'));
    await service.put(owner, project, { kind: 'email', provider: 'sendgrid', verified_domains: ['other.example'] });
    expect(box.decrypt(integrations.rows.get('email')!.secretEncrypted)).toBe('SG.abcdefghijkl-WXYZ');
    expect(await service.emailVerifiedDomains(project)).toEqual(['other.example']);
  });

  it('after the encryption key changed: the view asks for a new secret, and a change without one is refused', async () => {
    const integrations = new FakeIntegrations();
    const before = setUp(new SecretBox('a'.repeat(64)), integrations);
    await before.service.put(before.owner, before.project, { kind: 'text-generation', provider: 'anthropic', api_key: 'sk-ant-0123456789' });
    const after = setUp(new SecretBox('b'.repeat(64)), integrations);

    expect(await after.service.list(after.owner, after.project)).toEqual([expect.objectContaining({ kind: 'text-generation', needs_new_secret: true })]);
    const error = await appErrorOf(after.service.put(after.owner, after.project, { kind: 'text-generation', provider: 'anthropic', default_model: 'claude' }));
    expect(error.details).toEqual([{ path: 'api_key', message: expect.stringContaining('can no longer be decrypted') }]);
  });

  it('answers not_found for an integration that is not configured', async () => {
    const { service, owner, project } = setUp();
    expect((await appErrorOf(service.get(owner, project, 'email'))).code).toBe('not_found');
    expect((await appErrorOf(service.remove(owner, project, 'text-generation'))).code).toBe('not_found');
  });

  it("treats another account's project as unknown", async () => {
    const { service, integrations, world, project } = setUp();
    expect((await appErrorOf(service.put(world.stranger, project, email('SG.abcdefghijkl-WXYZ')))).code).toBe('project_not_found');
    expect(integrations.rows.size).toBe(0);
  });
});
