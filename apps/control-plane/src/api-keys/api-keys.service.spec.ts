import { randomUUID } from 'node:crypto';
import { apiKeyDisplayPrefix, isWellFormedApiKey } from '@flowgate/contracts';
import { sha256Hex } from '@flowgate/platform';
import type { Tx } from '../infrastructure/transaction';
import type { ProjectsService } from '../projects/projects.service';
import type { ProjectScope, PublicationService } from '../publication/publication.service';
import type { PublicationStore } from '../publication/publication.store';
import type { ApiKeyRecord, ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

// The service with fake repositories (no PostgreSQL, no Redis): what it stores, what it hands
// back, and which project a caller may touch. api-keys.int.spec.ts runs the same API for real.

const OWNER = randomUUID();
const PROJECT = randomUUID();
const tx = {} as Tx;

class FakeKeys {
  readonly rows: ApiKeyRecord[] = [];
  async list(projectId: string) {
    return this.rows.filter((row) => row.projectId === projectId);
  }
  async insert(_tx: Tx, data: Omit<ApiKeyRecord, 'id' | 'createdAt' | 'lastUsedAt'>) {
    const row: ApiKeyRecord = { ...data, id: randomUUID(), createdAt: new Date('2026-11-20T10:00:00Z'), lastUsedAt: null };
    this.rows.push(row);
    return row;
  }
  async delete(_tx: Tx, projectId: string, keyId: string) {
    const index = this.rows.findIndex((row) => row.id === keyId && row.projectId === projectId);
    return index === -1 ? null : this.rows.splice(index, 1)[0]!;
  }
}

/** Owns one project; `addKey`/`removeKey` run the change for that project, as the real one does in a transaction. */
class FakePublication {
  readonly published: string[] = [];
  private owned(scope: ProjectScope) {
    if (scope.projectId !== PROJECT || (scope.accountId !== undefined && scope.accountId !== OWNER)) throw new Error('project_not_found');
    return { id: PROJECT };
  }
  async addKey<T>(scope: ProjectScope, change: (tx: Tx, project: { id: string }) => Promise<T>) {
    const result = await change(tx, this.owned(scope));
    this.published.push('add');
    return result;
  }
  async removeKey<T>(scope: ProjectScope, change: (tx: Tx, project: { id: string }) => Promise<T>) {
    const result = await change(tx, this.owned(scope));
    this.published.push('remove');
    return result;
  }
}

function setUp(lastUsedInRedis: Record<string, number> = {}, keys = new FakeKeys()) {
  const publication = new FakePublication();
  const projects = {
    requireOwned: async (accountId: string, projectId: string) => {
      if (accountId !== OWNER || projectId !== PROJECT) throw new Error('project_not_found');
    },
  };
  const store = { lastUsedMs: async (_projectId: string, hashes: string[]) => hashes.map((hash) => lastUsedInRedis[hash] ?? null) };
  const service = new ApiKeysService(
    keys as unknown as ApiKeysRepository,
    projects as unknown as ProjectsService,
    publication as unknown as PublicationService,
    store as unknown as PublicationStore,
  );
  return { service, keys, publication };
}

describe('ApiKeysService (fake repositories)', () => {
  it('hands the secret back once and stores only its SHA-256 and display prefix', async () => {
    const { service, keys, publication } = setUp();
    const created = await service.create({ projectId: PROJECT, accountId: OWNER }, { name: 'mobile', ratelimit_min: 120, permission: 'user' });

    expect(isWellFormedApiKey(created.key)).toBe(true);
    expect(keys.rows).toHaveLength(1);
    expect(keys.rows[0]).toMatchObject({ keyHash: sha256Hex(created.key), displayPrefix: apiKeyDisplayPrefix(created.key), ratelimitMin: 120 });
    expect(JSON.stringify(keys.rows)).not.toContain(created.key);
    expect(created.key_data).toEqual({ id: keys.rows[0]!.id, name: 'mobile', last_used_at: null, created_at: '2026-11-20T10:00:00.000Z', ratelimit_min: 120, permission: 'user' });
    expect(publication.published).toEqual(['add']);
  });

  it('lists keys with their prefix, never their hash, and the later of the two last-use times', async () => {
    const { service, keys } = setUp();
    const created = await service.create({ projectId: PROJECT }, { name: 'ops', ratelimit_min: 60, permission: 'admin' });
    keys.rows[0]!.lastUsedAt = new Date('2026-11-21T08:00:00Z');
    const laterInRedis = Date.parse('2026-11-21T09:30:00Z');
    const { service: withRedis } = setUp({ [sha256Hex(created.key)]: laterInRedis }, keys);

    const [listed] = await withRedis.list(OWNER, PROJECT);
    expect(listed).toMatchObject({ name: 'ops', permission: 'admin', key_prefix: apiKeyDisplayPrefix(created.key), last_used_at: '2026-11-21T09:30:00.000Z' });
    expect(JSON.stringify(listed)).not.toContain(sha256Hex(created.key));
    expect((await service.list(OWNER, PROJECT))[0]!.last_used_at).toBe('2026-11-21T08:00:00.000Z');
  });

  it('refuses another account\'s project: nothing is listed, created or deleted there', async () => {
    const { service, keys, publication } = setUp();
    const stranger = randomUUID();
    await expect(service.list(stranger, PROJECT)).rejects.toThrow('project_not_found');
    await expect(service.create({ projectId: PROJECT, accountId: stranger }, { name: 'x', ratelimit_min: 60, permission: 'user' })).rejects.toThrow('project_not_found');
    expect(keys.rows).toHaveLength(0);
    expect(publication.published).toEqual([]);
  });

  it('deletes a key of the project, and answers api_key_not_found for a key that is not there', async () => {
    const { service, keys, publication } = setUp();
    const created = await service.create({ projectId: PROJECT }, { name: 'gone soon', ratelimit_min: 60, permission: 'user' });
    await service.delete({ projectId: PROJECT, accountId: OWNER }, created.key_data.id);
    expect(keys.rows).toHaveLength(0);
    await expect(service.delete({ projectId: PROJECT }, created.key_data.id)).rejects.toMatchObject({ code: 'api_key_not_found', message: 'API key not found' });
    expect(publication.published).toEqual(['add', 'remove']);
  });
});
