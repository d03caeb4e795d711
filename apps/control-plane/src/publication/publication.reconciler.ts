import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { MetricsService } from '../health/metrics.service';
import { PublicationRepository } from './publication.repository';
import { PublicationService } from './publication.service';
import { PublicationStore } from './publication.store';

const CONCURRENCY = 4;

async function forEachLimit<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export type RepublishReason = 'startup' | 'epoch_missing' | 'reconcile' | 'projects_missing';

/**
 * Keeps Redis equal to PostgreSQL. A full republication (every project's document, subdomain and
 * key records, then a new `fg:epoch` that makes gateways re-read all they hold) runs only when
 * Redis lost its state: the epoch marker missing, at start-up or at any check (Redis restarted
 * empty, was flushed or failed over). Otherwise the start-up does not wait for Redis: the
 * control plane listens at once, and the periodic reconcile (the first right after start-up)
 * compares each project's revision with `fg:fresh` and rewrites only the projects that differ,
 * under a new revision and announced like any change. On a Redis Cluster one shard can lose its
 * state while `fg:epoch` lives on another, so the epoch check also looks for projects whose
 * document is missing (a project's document, keys and windows share its hash tag: a lost shard
 * lost them together) and republishes those under a new epoch. Records are only ever rewritten
 * from PostgreSQL, never swept: Redis may be shared with other installations or test runs,
 * whose records this one cannot tell apart.
 */
@Injectable()
export class PublicationReconciler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly timers: NodeJS.Timeout[] = [];
  private running: Promise<{ projects: number; epoch: string }> | null = null;
  private stopped = false;

  constructor(
    private readonly publication: PublicationService,
    private readonly repository: PublicationRepository,
    private readonly store: PublicationStore,
    private readonly metrics: MetricsService,
    private readonly logger: PinoLogger,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {
    logger.setContext('PublicationReconciler');
  }

  async onApplicationBootstrap(): Promise<void> {
    const { background, epochCheckSeconds, reconcileSeconds } = this.config.publication;
    if (!background) return;
    if (!(await this.store.epoch())) await this.republishAll('startup');
    else void this.reconcile().catch((error: unknown) => this.logger.error({ err: error }, 'reconcile at start-up failed'));
    this.every(epochCheckSeconds, () => this.checkEpoch());
    this.every(reconcileSeconds, () => this.reconcile());
  }

  onModuleDestroy(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
  }

  /** Republishes everything when `fg:epoch` is gone, and (cluster) the projects a shard lost; true when it did. */
  async checkEpoch(): Promise<boolean> {
    if (!(await this.store.epoch())) {
      this.logger.warn('fg:epoch is missing: Redis lost its state; republishing every project');
      await this.republishAll('epoch_missing');
      return true;
    }
    if (this.config.redisClusterNodes === null) return false;
    const missing = await this.store.missingProjects(await this.repository.listProjectAddresses());
    if (missing.length === 0) return false;
    this.logger.warn({ projects: missing.length }, 'project documents or subdomains are missing: a Redis Cluster shard lost its state; republishing those projects');
    await this.republishSome(missing);
    return true;
  }

  /**
   * Republishes the given projects (with their keys), then a new epoch: gateways re-read every
   * cached project on the epoch change, and only then take a still-missing document as deleted.
   */
  private async republishSome(ids: string[]): Promise<void> {
    await forEachLimit(ids, CONCURRENCY, async (id) => {
      await this.publication.republishProject(id);
    });
    const epoch = randomUUID();
    await this.store.setEpoch(epoch);
    await this.store.announceRepublish(epoch);
    this.metrics.republishes.inc({ reason: 'projects_missing' });
  }

  /**
   * Rewrites the projects whose published revision, document or subdomain mapping differs from
   * PostgreSQL (three Redis reads a project, no write for the others). When the documents were
   * sealed or addressed otherwise (a new FLOWGATE_ENCRYPTION_KEY, a new GATEWAY_PUBLIC_URL)
   * every document is rewritten first, at its own revision and unannounced: gateways keep the
   * copies they opened. Resolves with the projects rewritten as changes.
   */
  async reconcile(): Promise<string[]> {
    const publishedWith = this.publishedWith();
    if ((await this.store.publishedWith()) !== publishedWith) {
      await forEachLimit(await this.repository.listProjectIds(), CONCURRENCY, async (id) => {
        await this.publication.republishProject(id);
      });
      await this.store.setPublishedWith(publishedWith);
    }
    const differing = await this.store.differingProjects(await this.repository.listProjectRevisions());
    await forEachLimit(differing, CONCURRENCY, async (id) => {
      await this.publication.republishProject(id, { asChange: true });
    });
    if (differing.length > 0) this.logger.info({ projects: differing.length }, 'rewrote the projects Redis held otherwise than PostgreSQL');
    return differing;
  }

  /** A fingerprint of the key documents are sealed with and the public URL they name (never the key itself). */
  private publishedWith(): string {
    return createHash('sha256').update(`flowgate-publication\0${this.config.encryptionKey}\0${this.config.gatewayPublicUrl}`).digest('hex').slice(0, 32);
  }

  /** One full republication at a time; a caller arriving during one waits for it. */
  republishAll(reason: RepublishReason): Promise<{ projects: number; epoch: string }> {
    this.running ??= this.runRepublish(reason).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async runRepublish(reason: RepublishReason): Promise<{ projects: number; epoch: string }> {
    const epoch = randomUUID();
    // The marker goes first: if Redis loses its state again while we work, the next check sees it missing.
    await this.store.setEpoch(epoch);
    const ids = await this.repository.listProjectIds();
    let published = 0;
    await forEachLimit(ids, CONCURRENCY, async (id) => {
      if (await this.publication.republishProject(id)) published++;
    });
    await this.store.announceRepublish(epoch);
    await this.store.setPublishedWith(this.publishedWith());
    this.metrics.republishes.inc({ reason });
    this.logger.info({ reason, projects: published, epoch }, 'republished every project');
    return { projects: published, epoch };
  }

  private every(seconds: number, task: () => Promise<unknown>): void {
    let busy = false;
    const timer = setInterval(() => {
      if (busy || this.stopped) return;
      busy = true;
      task()
        .catch((error: unknown) => this.logger.error({ err: error }, 'publication maintenance failed'))
        .finally(() => {
          busy = false;
        });
    }, seconds * 1000);
    timer.unref();
    this.timers.push(timer);
  }
}
