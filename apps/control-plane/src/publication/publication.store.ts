import { Inject, Injectable } from '@nestjs/common';
import {
  CHANGES_CHANNEL,
  CONFIG_SEQ_KEY,
  type ConfigChange,
  EPOCH_KEY,
  type PublishedApiKey,
  type PublishedProject,
  apiKeyRecordKey,
  projectKey,
  rateLimitKey,
  subdomainKey,
} from '@flowgate/contracts';
import type { ChainableCommander } from 'ioredis';
import { Redis } from 'ioredis';
import { PinoLogger } from 'nestjs-pino';
import { AppError } from '../common/app-error';
import { MetricsService } from '../health/metrics.service';

export interface KeyRecord {
  keyHash: string;
  fields: Record<keyof PublishedApiKey, string>;
}

/**
 * Redis side of the publication: every write of the contract in libs/contracts/src/redis-layout.ts
 * goes through here, each as one MULTI/EXEC so a gateway never sees half of a change.
 */
@Injectable()
export class PublicationStore {
  constructor(
    @Inject(Redis) private readonly redis: Redis,
    private readonly metrics: MetricsService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext('PublicationStore');
  }

  /** The project's document and subdomain (dropping the previous subdomain), optionally its keys, then the announcement. */
  async writeProject(
    project: PublishedProject,
    options: { previousSubdomain?: string | null; keys?: KeyRecord[]; announce: boolean },
  ): Promise<void> {
    const multi = this.redis.multi();
    if (options.previousSubdomain && options.previousSubdomain !== project.subdomain) multi.del(subdomainKey(options.previousSubdomain));
    multi.set(subdomainKey(project.subdomain), project.id);
    multi.set(projectKey(project.id), JSON.stringify(project));
    for (const key of options.keys ?? []) multi.hset(apiKeyRecordKey(key.keyHash), key.fields);
    if (options.announce) this.announce(multi, { type: 'project', project_id: project.id, revision: project.revision });
    await this.exec(multi, 'project');
  }

  /** Everything of a deleted project: its subdomain, document, key records and their rate-limit windows. */
  async removeProject(projectId: string, subdomain: string, keyHashes: string[]): Promise<void> {
    const multi = this.redis.multi();
    multi.del(subdomainKey(subdomain), projectKey(projectId));
    for (const hash of keyHashes) multi.del(apiKeyRecordKey(hash), rateLimitKey(hash));
    this.announce(multi, { type: 'project_deleted', project_id: projectId });
    await this.exec(multi, 'project_delete');
  }

  async writeKey(key: KeyRecord): Promise<void> {
    await this.exec(this.redis.multi().hset(apiKeyRecordKey(key.keyHash), key.fields), 'key');
  }

  async removeKey(keyHash: string): Promise<void> {
    await this.exec(this.redis.multi().del(apiKeyRecordKey(keyHash), rateLimitKey(keyHash)), 'key_delete');
  }

  /** `last_used_ms` that the gateway script writes into each key record (absent when unused). */
  async lastUsedMs(keyHashes: string[]): Promise<Array<number | null>> {
    if (keyHashes.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const hash of keyHashes) pipeline.hget(apiKeyRecordKey(hash), 'last_used_ms');
    const results = (await pipeline.exec().catch(() => null)) ?? [];
    return keyHashes.map((_, index) => {
      const value = Number(results[index]?.[1] ?? NaN);
      return Number.isFinite(value) && value > 0 ? value : null;
    });
  }

  async epoch(): Promise<string | null> {
    return this.redis.get(EPOCH_KEY);
  }

  async setEpoch(epoch: string): Promise<void> {
    await this.redis.set(EPOCH_KEY, epoch);
  }

  async announceRepublish(epoch: string): Promise<void> {
    const multi = this.redis.multi();
    this.announce(multi, { type: 'republish', epoch });
    await this.exec(multi, 'republish');
  }

  private announce(multi: ChainableCommander, change: ConfigChange): void {
    multi.incr(CONFIG_SEQ_KEY).publish(CHANGES_CHANNEL, JSON.stringify(change));
  }

  private async exec(multi: ChainableCommander, kind: string): Promise<void> {
    try {
      const results = await multi.exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error('transaction discarded');
      this.metrics.publications.inc({ kind, outcome: 'ok' });
    } catch (error) {
      this.metrics.publications.inc({ kind, outcome: 'failed' });
      // The message only: ioredis attaches the failed command with its arguments (documents, key records).
      this.logger.error({ error: error instanceof Error ? error.message : String(error), kind }, 'publication to Redis failed');
      throw new AppError('unavailable', 'The change could not be published to Redis, so it was not made; try again', undefined, {
        'Retry-After': '1',
      });
    }
  }
}
