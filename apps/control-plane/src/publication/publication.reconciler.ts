import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PrismaClient } from '@flowgate/db';
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

export type RepublishReason = 'startup' | 'epoch_missing' | 'reconcile';

/**
 * Keeps Redis equal to PostgreSQL: republishes everything at start-up, whenever the epoch marker
 * is missing (Redis restarted empty, was flushed or failed over), and periodically. The optional
 * orphan sweep removes records of projects and keys PostgreSQL no longer has; it is off by
 * default because it assumes this Redis serves no other Flowgate installation (or test run).
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
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {
    logger.setContext('PublicationReconciler');
  }

  async onApplicationBootstrap(): Promise<void> {
    const { background, epochCheckSeconds, reconcileSeconds } = this.config.publication;
    if (!background) return;
    await this.republishAll('startup');
    this.every(epochCheckSeconds, () => this.checkEpoch());
    this.every(reconcileSeconds, () => this.republishAll('reconcile'));
  }

  onModuleDestroy(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
  }

  /** Republishes everything when `fg:epoch` is gone; true when it did. */
  async checkEpoch(): Promise<boolean> {
    if (await this.store.epoch()) return false;
    this.logger.warn('fg:epoch is missing: Redis lost its state; republishing every project');
    await this.republishAll('epoch_missing');
    return true;
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
    if (this.config.publication.sweepOrphans) await this.sweepOrphans(new Set(ids));
    await this.store.announceRepublish(epoch);
    this.metrics.republishes.inc({ reason });
    this.logger.info({ reason, projects: published, epoch }, 'republished every project');
    return { projects: published, epoch };
  }

  /** Removes subdomain, project and key records that PostgreSQL does not back, each checked again under its project's lock. */
  private async sweepOrphans(known: Set<string>): Promise<void> {
    for await (const keys of this.store.scan('fg:project:*')) {
      for (const key of keys) {
        const projectId = /^fg:project:\{(.+)\}$/.exec(key)?.[1];
        if (projectId && !known.has(projectId))
          await this.removeIfStale(projectId, key, async () => !(await this.projectExists(projectId)));
      }
    }
    for await (const keys of this.store.scan('fg:sub:*')) {
      for (const key of keys) {
        const projectId = await this.store.get(key);
        if (!projectId) continue;
        const subdomain = key.slice('fg:sub:'.length);
        await this.removeIfStale(projectId, key, async () => {
          if ((await this.store.get(key)) !== projectId) return false;
          const project = await this.prisma.project.findUnique({ where: { id: projectId }, select: { subdomain: true } });
          return project?.subdomain !== subdomain;
        });
      }
    }
    for await (const keys of this.store.scan('fg:key:*')) {
      for (const key of keys) {
        const keyHash = /^fg:key:\{([0-9a-f]{64})\}$/.exec(key)?.[1];
        const projectId = await this.store.hget(key, 'project_id');
        if (!keyHash || !projectId) continue;
        await this.removeIfStale(projectId, key, async () => {
          const stored = await this.prisma.apiKey.findUnique({ where: { keyHash }, select: { projectId: true } });
          return stored?.projectId !== projectId;
        });
      }
    }
  }

  private async removeIfStale(projectId: string, key: string, isStale: () => Promise<boolean>): Promise<void> {
    if (!/^[0-9a-f-]{36}$/.test(projectId)) return;
    await this.repository.transaction(async (tx) => {
      await this.repository.lock(tx, projectId);
      if (await isStale()) {
        await this.store.del(key);
        this.logger.info({ key }, 'removed an orphaned Redis record');
      }
    });
  }

  private async projectExists(projectId: string): Promise<boolean> {
    return (await this.prisma.project.count({ where: { id: projectId } })) > 0;
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
