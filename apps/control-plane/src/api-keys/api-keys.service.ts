import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { apiKeyDisplayPrefix, formatApiKey } from '@flowgate/contracts';
import { sha256Hex } from '@flowgate/platform';
import { AppError } from '../common/app-error';
import { ProjectsService } from '../projects/projects.service';
import { type ProjectScope, PublicationService } from '../publication/publication.service';
import { PublicationStore } from '../publication/publication.store';
import { type ApiKeyRecord, ApiKeysRepository } from './api-keys.repository';
import type { CreateApiKeyInput, CreatedApiKey, KeyData, ListedKey } from './dto/api-key.dto';

/**
 * API keys for both callers: the dashboard (scope carries the account) and the gateway's
 * `/admin/api-keys` relay (scope is the project alone). Only the SHA-256 of a secret is stored;
 * creation and deletion reach Redis before the answer.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly projects: ProjectsService,
    private readonly publication: PublicationService,
    private readonly store: PublicationStore,
  ) {}

  async create(scope: ProjectScope, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const secret = formatApiKey((size) => randomBytes(size));
    const record = await this.publication.addKey(scope, (tx, project) =>
      this.keys.insert(tx, {
        projectId: project.id,
        name: input.name,
        keyHash: sha256Hex(secret),
        displayPrefix: apiKeyDisplayPrefix(secret),
        ratelimitMin: input.ratelimit_min,
        permission: input.permission,
      }),
    );
    return { success: true, key: secret, key_data: toKeyData(record, null) };
  }

  async list(accountId: string, projectId: string): Promise<ListedKey[]> {
    await this.projects.requireOwned(accountId, projectId);
    const records = await this.keys.list(projectId);
    const lastUsed = await this.store.lastUsedMs(projectId, records.map((record) => record.keyHash));
    return records.map((record, index) => ({ ...toKeyData(record, lastUsed[index] ?? null), key_prefix: record.displayPrefix }));
  }

  async delete(scope: ProjectScope, keyId: string): Promise<void> {
    await this.publication.removeKey(scope, async (tx, project) => {
      const removed = await this.keys.delete(tx, project.id, keyId);
      if (!removed) throw new AppError('api_key_not_found', 'API key not found');
      return removed;
    });
  }
}

/**
 * `last_used_at` is the later of the column log-ingest maintains and the `last_used_ms` the
 * gateway writes into the key's Redis record (fresher: the log pipeline lags a little).
 */
function toKeyData(record: ApiKeyRecord, redisLastUsedMs: number | null): KeyData {
  const fromDb = record.lastUsedAt?.getTime() ?? null;
  const lastUsed = fromDb === null ? redisLastUsedMs : redisLastUsedMs === null ? fromDb : Math.max(fromDb, redisLastUsedMs);
  return {
    id: record.id,
    name: record.name,
    last_used_at: lastUsed === null ? null : new Date(lastUsed).toISOString(),
    created_at: record.createdAt.toISOString(),
    ratelimit_min: record.ratelimitMin,
    permission: record.permission,
  };
}
