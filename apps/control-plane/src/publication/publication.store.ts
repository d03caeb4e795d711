import { Inject, Injectable } from '@nestjs/common';
import {
  ANNOUNCE_SCRIPT,
  CHANGES_CHANNEL,
  CONFIG_SEQ_KEY,
  type ConfigChange,
  EPOCH_KEY,
  freshnessKey,
  openApiKey,
  previewOpenApiKey,
  PROJECT_DELETED_TTL_SECONDS,
  PUBLISHED_WITH_KEY,
  type PublishedApiKey,
  type PublishedProject,
  apiKeyRecordKey,
  projectDeletedKey,
  projectKey,
  rateLimitKey,
  subdomainKey,
  RESPONSE_CACHE_PURGE_LUA,
  responseCacheBytesKey,
  responseCacheEndpointPrefix,
  responseCacheLruKey,
  responseCacheSizesKey,
} from '@flowgate/contracts';
import type { ChainableCommander } from 'ioredis';
import { Redis } from 'ioredis';
import { isCluster, type RedisClient } from '@flowgate/platform';
import { PinoLogger } from 'nestjs-pino';
import { AppError } from '../common/app-error';
import type { PublishedRevision } from './publication.repository';
import { MetricsService } from '../health/metrics.service';

/** How long a deletion waits for a replica's acknowledgement (cluster mode). */
const REPLICATION_WAIT_MS = 500;

export interface KeyRecord {
  keyHash: string;
  fields: Record<keyof PublishedApiKey, string>;
}

/**
 * Redis side of the publication: every write of the contract in libs/contracts/src/redis-layout.ts
 * goes through here. What a gateway reads for one project (its document and key records, all
 * under the project's hash tag) changes in one MULTI/EXEC, so it is never half old, half new.
 * On a single Redis the subdomain mapping and the announcement join that MULTI; on a Redis
 * Cluster they live in other slots and follow it: the new mapping first, then the project's
 * MULTI, then the old mapping's removal and the announcement. A gateway trusts the document's
 * own `subdomain`, so a mapping a step ahead or behind serves nothing wrong.
 */
@Injectable()
export class PublicationStore {
  private readonly cluster: boolean;

  constructor(
    @Inject(Redis) private readonly redis: RedisClient,
    private readonly metrics: MetricsService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext('PublicationStore');
    this.cluster = isCluster(redis);
  }

  /** The project's document and subdomain (dropping the previous subdomain), optionally its keys, then the announcement. */
  async writeProject(
    project: PublishedProject,
    options: { previousSubdomain?: string | null; keys?: KeyRecord[]; announce: boolean; openApi?: string; previewOpenApi?: string },
  ): Promise<void> {
    const dropSubdomain = options.previousSubdomain && options.previousSubdomain !== project.subdomain ? options.previousSubdomain : null;
    const change: ConfigChange | null = options.announce ? { type: 'project', project_id: project.id, revision: project.revision } : null;
    const projectSlot = (multi: ChainableCommander) => {
      multi.set(projectKey(project.id), JSON.stringify(project));
      multi.set(freshnessKey(project.id), String(project.revision));
      if (options.openApi !== undefined) multi.set(openApiKey(project.id), options.openApi);
      if (options.previewOpenApi !== undefined) multi.set(previewOpenApiKey(project.id), options.previewOpenApi);
      for (const key of options.keys ?? []) multi.hset(apiKeyRecordKey(project.id, key.keyHash), key.fields);
    };
    if (!this.cluster) {
      const multi = this.redis.multi();
      if (dropSubdomain) multi.del(subdomainKey(dropSubdomain));
      multi.set(subdomainKey(project.subdomain), project.id);
      projectSlot(multi);
      if (change) this.announce(multi, change);
      return this.exec(multi, 'project');
    }
    await this.exec(this.redis.multi().set(subdomainKey(project.subdomain), project.id), 'project');
    const multi = this.redis.multi();
    projectSlot(multi);
    await this.exec(multi, 'project');
    if (dropSubdomain) await this.exec(this.redis.multi().del(subdomainKey(dropSubdomain)), 'project');
    if (change) await this.exec(this.announce(this.redis.multi(), change), 'project');
  }

  /**
   * Everything of a deleted project: its document, key records and their rate-limit windows go,
   * and the deletion marker stays (a document missing without it means Redis lost state).
   */
  async removeProject(projectId: string, subdomain: string, keyHashes: string[]): Promise<void> {
    const change: ConfigChange = { type: 'project_deleted', project_id: projectId };
    const multi = this.redis.multi();
    multi.del(projectKey(projectId), openApiKey(projectId), previewOpenApiKey(projectId), freshnessKey(projectId)).set(projectDeletedKey(projectId), '1', 'EX', PROJECT_DELETED_TTL_SECONDS);
    for (const hash of keyHashes) multi.del(apiKeyRecordKey(projectId, hash), rateLimitKey(projectId, hash));
    if (!this.cluster) {
      multi.del(subdomainKey(subdomain));
      return this.exec(this.announce(multi, change), 'project_delete');
    }
    await this.exec(multi, 'project_delete');
    await this.replicated(projectKey(projectId));
    await this.exec(this.redis.multi().del(subdomainKey(subdomain)), 'project_delete');
    await this.exec(this.announce(this.redis.multi(), change), 'project_delete');
  }

  async writeKey(projectId: string, key: KeyRecord): Promise<void> {
    await this.exec(this.redis.multi().hset(apiKeyRecordKey(projectId, key.keyHash), key.fields), 'key');
  }

  async removeKey(projectId: string, keyHash: string): Promise<void> {
    await this.exec(this.redis.multi().del(apiKeyRecordKey(projectId, keyHash), rateLimitKey(projectId, keyHash)), 'key_delete');
    await this.replicated(apiKeyRecordKey(projectId, keyHash));
  }

  /**
   * Cluster: waits (bounded) until a replica of the key's master has the deletion, so a
   * failover right after the answer cannot bring a deleted key or project back. A master
   * without a reachable replica is not waited for: losing it loses the slot's state, which
   * the lost-state check republishes from PostgreSQL, where the deletion already is.
   */
  private async replicated(key: string): Promise<void> {
    if (!isCluster(this.redis)) return;
    const cluster = this.redis;
    try {
      const slot = Number(await cluster.cluster('KEYSLOT', key));
      const owner = cluster.slots[slot]?.[0];
      const master = cluster.nodes('master').find((node) => `${node.options.host}:${node.options.port}` === owner);
      const acked = master ? Number(await master.wait(1, REPLICATION_WAIT_MS)) : 0;
      if (acked < 1) this.logger.warn({ key_slot: slot }, 'no replica confirmed a deletion in time; it is on the master only');
    } catch (error) {
      this.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'could not wait for a replica to confirm a deletion');
    }
  }

  /** `last_used_ms` that the gateway script writes into each key record (absent when unused). */
  async lastUsedMs(projectId: string, keyHashes: string[]): Promise<Array<number | null>> {
    if (keyHashes.length === 0) return [];
    // One slot (the project's hash tag), so one pipeline in cluster mode too.
    const pipeline = this.redis.pipeline();
    for (const hash of keyHashes) pipeline.hget(apiKeyRecordKey(projectId, hash), 'last_used_ms');
    const results = (await pipeline.exec().catch(() => null)) ?? [];
    return keyHashes.map((_, index) => {
      const value = Number(results[index]?.[1] ?? NaN);
      return Number.isFinite(value) && value > 0 ? value : null;
    });
  }

  /** Ends every cached answer of an endpoint (docs/inbound.md "Response caching"): one script in the project's slot. */
  async endCachedAnswers(projectId: string, endpointId: string): Promise<void> {
    await this.redis.eval(
      RESPONSE_CACHE_PURGE_LUA,
      3,
      responseCacheLruKey(projectId),
      responseCacheSizesKey(projectId),
      responseCacheBytesKey(projectId),
      responseCacheEndpointPrefix(projectId, endpointId),
    );
  }

  /** A new description without a new publication: gateways serve theirs from memory, so they are told. */
  async writeOpenApi(projectId: string, document: string): Promise<void> {
    await this.exec(this.announce(this.redis.multi().set(openApiKey(projectId), document), { type: 'description', project_id: projectId }), 'openapi');
  }

  /** The project's OpenAPI document as published (JSON text), null when Redis lacks it. */
  openApi(projectId: string): Promise<string | null> {
    return this.redis.get(openApiKey(projectId));
  }

  async epoch(): Promise<string | null> {
    return this.redis.get(EPOCH_KEY);
  }

  /**
   * The projects whose document or subdomain mapping is missing from Redis: on a Redis Cluster
   * one shard can lose its state (master and replicas gone) while `fg:epoch`, on another, survives.
   */
  async missingProjects(projects: Array<{ id: string; subdomain: string }>): Promise<string[]> {
    const missing: string[] = [];
    for (let start = 0; start < projects.length; start += 500) {
      const chunk = projects.slice(start, start + 500);
      // Separate commands (auto-pipelined per node in cluster mode): a pipeline must stay in one slot there.
      const found = await Promise.all(
        chunk.map(async ({ id, subdomain }) => {
          const [document, mapping] = await Promise.all([this.redis.exists(projectKey(id)), this.redis.exists(subdomainKey(subdomain))]);
          return document === 1 && mapping === 1;
        }),
      );
      chunk.forEach(({ id }, index) => {
        if (!found[index]) missing.push(id);
      });
    }
    return missing;
  }

  /**
   * The projects Redis does not hold as PostgreSQL has them: revision (`fg:fresh`) different,
   * document or subdomain mapping missing. Three reads a project, pipelined 500 projects at a time.
   */
  async differingProjects(projects: PublishedRevision[]): Promise<string[]> {
    const differing: string[] = [];
    for (let start = 0; start < projects.length; start += 500) {
      const chunk = projects.slice(start, start + 500);
      const same = await Promise.all(
        chunk.map(async ({ id, subdomain, revision }) => {
          const [published, document, mapping] = await Promise.all([
            this.redis.get(freshnessKey(id)),
            this.redis.exists(projectKey(id)),
            this.redis.get(subdomainKey(subdomain)),
          ]);
          return published === String(revision) && document === 1 && mapping === id;
        }),
      );
      chunk.forEach(({ id }, index) => {
        if (!same[index]) differing.push(id);
      });
    }
    return differing;
  }

  /** What the published documents were sealed and addressed with (see PublicationReconciler.publishedWith). */
  publishedWith(): Promise<string | null> {
    return this.redis.get(PUBLISHED_WITH_KEY);
  }

  async setPublishedWith(value: string): Promise<void> {
    await this.redis.set(PUBLISHED_WITH_KEY, value);
  }

  async setEpoch(epoch: string): Promise<void> {
    await this.redis.set(EPOCH_KEY, epoch);
  }

  async announceRepublish(epoch: string): Promise<void> {
    const multi = this.redis.multi();
    this.announce(multi, { type: 'republish', epoch });
    await this.exec(multi, 'republish');
  }

  private announce(multi: ChainableCommander, change: ConfigChange): ChainableCommander {
    return multi.eval(ANNOUNCE_SCRIPT, 1, CONFIG_SEQ_KEY, CHANGES_CHANNEL, JSON.stringify(change));
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
