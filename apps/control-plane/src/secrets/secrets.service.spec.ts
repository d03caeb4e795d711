import { randomUUID } from 'node:crypto';
import { MAX_SECRETS_PER_PROJECT } from '@flowgate/contracts';
import { SecretBox } from '@flowgate/platform';
import { appErrorOf, fakeProjects, FakePublication, fakeWorld } from '../testing/fake-services';
import type { SecretReader, SecretRecord, SecretsRepository } from './secrets.repository';
import { SecretsService } from './secrets.service';

// The service with a fake repository (no PostgreSQL, no Redis): what is stored, what comes back,
// when a change is refused. secrets.int.spec.ts runs the same API for real.

class FakeSecrets {
  readonly rows: SecretRecord[] = [];
  readers: SecretReader[] = [];
  async list() {
    return [...this.rows].sort((a, b) => a.name.localeCompare(b.name));
  }
  async names() {
    return (await this.list()).map((row) => row.name);
  }
  async find(_tx: unknown, _projectId: string, name: string) {
    return this.rows.find((row) => row.name === name) ?? null;
  }
  async count() {
    return this.rows.length;
  }
  async create(_tx: unknown, _projectId: string, data: Pick<SecretRecord, 'name' | 'description' | 'valueEncrypted' | 'previewValueEncrypted'>) {
    const row: SecretRecord = { ...data, id: randomUUID(), createdAt: new Date('2026-11-20T10:00:00Z'), updatedAt: new Date('2026-11-20T10:00:00Z') };
    this.rows.push(row);
    return row;
  }
  async update(_tx: unknown, id: string, data: Partial<SecretRecord>) {
    const row = this.rows.find((candidate) => candidate.id === id)!;
    Object.assign(row, data, { updatedAt: new Date('2026-11-21T10:00:00Z') });
    return row;
  }
  async delete(_tx: unknown, id: string) {
    this.rows.splice(
      this.rows.findIndex((row) => row.id === id),
      1,
    );
  }
  async liveReaders() {
    return this.readers;
  }
}

function setUp() {
  const world = fakeWorld();
  const secrets = new FakeSecrets();
  const publication = new FakePublication(world);
  const box = new SecretBox('k'.repeat(64));
  const service = new SecretsService(secrets as unknown as SecretsRepository, fakeProjects(world), publication.asService(), box);
  return { world, secrets, publication, box, service, owner: world.owner, project: world.project.id };
}

describe('SecretsService (fake repository)', () => {
  it('stores a value sealed, never hands it back, and publishes the change', async () => {
    const { service, secrets, publication, box, owner, project } = setUp();
    const { created, secret } = await service.put(owner, project, 'API_TOKEN', { value: 'sk-live-123', description: 'the vendor' });

    expect(created).toBe(true);
    expect(JSON.stringify(secret)).not.toContain('sk-live-123');
    expect(secret).toMatchObject({ name: 'API_TOKEN', description: 'the vendor', has_preview_value: false, used_by: [] });
    expect(JSON.stringify(secrets.rows)).not.toContain('sk-live-123');
    expect(box.decrypt(secrets.rows[0]!.valueEncrypted)).toBe('sk-live-123');
    expect(publication.events).toEqual(['serving']);
  });

  it('replaces a value and keeps the preview value and description that were not sent', async () => {
    const { service, secrets, box, owner, project } = setUp();
    await service.put(owner, project, 'API_TOKEN', { value: 'live-1', preview_value: 'test-1', description: 'vendor' });
    const { created, secret } = await service.put(owner, project, 'API_TOKEN', { value: 'live-2' });

    expect(created).toBe(false);
    expect(secret).toMatchObject({ description: 'vendor', has_preview_value: true });
    expect(secrets.rows).toHaveLength(1);
    expect(box.decrypt(secrets.rows[0]!.valueEncrypted)).toBe('live-2');
    expect(box.decrypt(secrets.rows[0]!.previewValueEncrypted!)).toBe('test-1');
  });

  it('refuses a name flows could not read, naming the field, and stores nothing', async () => {
    const { service, secrets, publication, owner, project } = setUp();
    const error = await appErrorOf(service.put(owner, project, 'api-token', { value: 'x' }));

    expect(error.code).toBe('invalid_request');
    expect(error.details).toEqual([{ path: 'name', message: expect.stringContaining('upper-case letter') }]);
    expect(secrets.rows).toEqual([]);
    expect(publication.events).toEqual([]);
  });

  it(`refuses a secret beyond the project's ${MAX_SECRETS_PER_PROJECT}, but still replaces an existing one`, async () => {
    const { service, secrets, owner, project } = setUp();
    for (let i = 0; i < MAX_SECRETS_PER_PROJECT; i++) await service.put(owner, project, `S${i}`, { value: 'v' });

    expect((await appErrorOf(service.put(owner, project, 'ONE_MORE', { value: 'v' }))).code).toBe('secret_limit_reached');
    await expect(service.put(owner, project, 'S0', { value: 'w' })).resolves.toMatchObject({ created: false });
    expect(secrets.rows).toHaveLength(MAX_SECRETS_PER_PROJECT);
  });

  it('refuses to delete a secret live endpoints read, naming them, unless forced', async () => {
    const { service, secrets, owner, project } = setUp();
    await service.put(owner, project, 'API_TOKEN', { value: 'v' });
    const endpointId = randomUUID();
    secrets.readers = [{ endpointId, name: 'Orders', secrets: ['API_TOKEN'] }];

    expect(await service.list(owner, project)).toEqual([expect.objectContaining({ name: 'API_TOKEN', used_by: [{ endpoint_id: endpointId, name: 'Orders' }] })]);
    const error = await appErrorOf(service.remove(owner, project, 'API_TOKEN', false));
    expect(error.code).toBe('secret_in_use');
    expect(error.message).toContain('Orders');
    expect(secrets.rows).toHaveLength(1);

    await service.remove(owner, project, 'API_TOKEN', true);
    expect(secrets.rows).toEqual([]);
  });

  it('answers not_found for a secret the project does not have', async () => {
    const { service, owner, project } = setUp();
    expect((await appErrorOf(service.remove(owner, project, 'NOPE', false))).code).toBe('not_found');
  });

  it("treats another account's project as unknown", async () => {
    const { service, world, secrets, project } = setUp();
    expect((await appErrorOf(service.put(world.stranger, project, 'API_TOKEN', { value: 'v' }))).code).toBe('project_not_found');
    expect((await appErrorOf(service.list(world.stranger, project))).code).toBe('project_not_found');
    expect(secrets.rows).toEqual([]);
  });

  it('opens the values for a test run: the preview value where one is set, and masks them all', async () => {
    const { service, owner, project } = setUp();
    await service.put(owner, project, 'WITH_PREVIEW', { value: 'live-value-1', preview_value: 'preview-value-1' });
    await service.put(owner, project, 'LIVE_ONLY', { value: 'live-value-2' });
    const opened = await service.open(project);

    expect(Object.fromEntries(opened.preview)).toEqual({ LIVE_ONLY: 'live-value-2', WITH_PREVIEW: 'preview-value-1' });
    expect(opened.masker?.text('live-value-1 preview-value-1 live-value-2')).not.toMatch(/value-\d/);
  });
});
