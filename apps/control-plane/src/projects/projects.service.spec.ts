import { randomUUID } from 'node:crypto';
import { conflict } from '../common/app-error';
import type { ControlPlaneConfig } from '../config/control-plane.config';
import type { DataDatabase } from '../infrastructure/data-database';
import { appErrorOf, FakePublication, fakeWorld } from '../testing/fake-services';
import type { ProjectRecord, ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

// The service with a fake repository (no PostgreSQL, no Redis): ownership, addresses, and which
// changes reach the gateways. projects.int.spec.ts and subdomains.int.spec.ts run the API for real.

class FakeProjects {
  readonly rows: ProjectRecord[] = [];
  async listByAccount(accountId: string) {
    return this.rows.filter((row) => row.accountId === accountId);
  }
  async findOwned(accountId: string, projectId: string) {
    return this.rows.find((row) => row.id === projectId && row.accountId === accountId) ?? null;
  }
  async create(_tx: unknown, data: { accountId: string; name: string; subdomain: string }) {
    if (this.rows.some((row) => row.subdomain === data.subdomain)) throw conflict('subdomain', 'is already taken');
    const row: ProjectRecord = { ...data, id: randomUUID(), requireAuth: false, createdAt: new Date('2026-11-20T10:00:00Z'), updatedAt: new Date('2026-11-20T10:00:00Z') };
    this.rows.push(row);
    return row;
  }
  async update(projectId: string, data: Partial<ProjectRecord>) {
    const row = this.rows.find((candidate) => candidate.id === projectId)!;
    for (const [field, value] of Object.entries(data)) if (value !== undefined) Object.assign(row, { [field]: value });
    return row;
  }
}

async function setUp() {
  const world = fakeWorld();
  const projects = new FakeProjects();
  const publication = new FakePublication(world);
  const config = { gatewayPublicUrl: 'https://{subdomain}.api.example' } as ControlPlaneConfig;
  const service = new ProjectsService(projects as unknown as ProjectsRepository, publication.asService(), {} as DataDatabase, config);
  const created = await service.create(world.owner, { name: 'Shop', subdomain: 'shop' });
  // The fake publication serves the project the service just created.
  world.project = { id: created.id, accountId: world.owner, subdomain: 'shop' };
  return { service, projects, publication, world, owner: world.owner, created };
}

describe('ProjectsService (fake repository)', () => {
  it('creates and publishes a project, with its address from GATEWAY_PUBLIC_URL', async () => {
    const { service, publication, owner, created } = await setUp();
    expect(created).toMatchObject({ name: 'Shop', subdomain: 'shop', require_auth: false, base_url: 'https://shop.api.example' });
    expect(publication.events).toEqual(['created']);
    expect(service.addresses('shop')).toEqual({ live: 'https://shop.api.example', preview: 'https://shop--preview.api.example' });
    expect(await service.list(owner)).toEqual([created]);
  });

  it('refuses a subdomain that is taken, naming the field', async () => {
    const { service, world } = await setUp();
    const error = await appErrorOf(service.create(world.owner, { name: 'Other', subdomain: 'shop' }));
    expect(error.code).toBe('conflict');
    expect(error.details).toEqual([{ path: 'subdomain', message: 'is already taken' }]);
  });

  it('publishes a subdomain or require_auth change to the gateways; a rename only rewrites the API description', async () => {
    const { service, publication, owner, created } = await setUp();
    expect(await service.update(owner, created.id, { name: 'Shop 2' })).toMatchObject({ name: 'Shop 2', subdomain: 'shop' });
    expect(publication.events.at(-1)).toBe('description');

    expect(await service.update(owner, created.id, { subdomain: 'store' })).toMatchObject({ subdomain: 'store', base_url: 'https://store.api.example' });
    expect(publication.events.at(-1)).toBe('serving');
    expect(await service.update(owner, created.id, { require_auth: true })).toMatchObject({ require_auth: true });
    expect(publication.events).toEqual(['created', 'description', 'serving', 'serving']);
  });

  it('refuses a malformed subdomain before anything changes', async () => {
    const { service, projects, publication, owner, created } = await setUp();
    const error = await appErrorOf(service.update(owner, created.id, { subdomain: 'Not A Subdomain!' }));
    expect(error.code).toBe('invalid_request');
    expect(error.details).toEqual([expect.objectContaining({ path: 'subdomain' })]);
    expect(projects.rows[0]!.subdomain).toBe('shop');
    expect(publication.events).toEqual(['created']);
  });

  it("answers 404 for another account's project exactly as for an unknown id", async () => {
    const { service, world, created } = await setUp();
    const stranger = await appErrorOf(service.get(world.stranger, created.id));
    const unknown = await appErrorOf(service.get(world.owner, randomUUID()));
    expect([stranger.code, stranger.message]).toEqual(['project_not_found', 'Project not found']);
    expect([unknown.code, unknown.message]).toEqual([stranger.code, stranger.message]);
    expect((await appErrorOf(service.update(world.stranger, created.id, { name: 'Mine' }))).code).toBe('project_not_found');
  });
});
