import {
  CHANGES_CHANNEL,
  CONFIG_SEQ_KEY,
  EPOCH_KEY,
  freshnessKey,
  projectDeletedKey,
  projectKey,
  subdomainKey,
  type ConfigChange,
  type PublishedProject,
} from '@flowgate/contracts';
import type { Logger, RedisClient } from '@flowgate/platform';
import { parsePublishedProject, type LoadedProject } from './loaded-project';

export interface ProjectCacheOptions {
  /** Command connection. */
  redis: RedisClient;
  /** A connection of its own: a subscribed connection can run nothing else. */
  subscriber: RedisClient;
  logger: Logger;
  pollMs: number;
  build(published: PublishedProject, previous: LoadedProject | null): LoadedProject;
  onLookup?(cache: 'subdomain' | 'project', hit: boolean): void;
  /**
   * The project's API description may have changed without a new publication (a rename; null:
   * any project's, after a missed message); or the project is gone.
   */
  onDescriptionChanged?(projectId: string | null): void;
}

interface ProjectSlot {
  /** null: not published (deleted) or never loaded. */
  project: LoadedProject | null;
  /** True after the first successful read from Redis. */
  loaded: boolean;
  /** The reload in progress; requests for the project wait for it. */
  loading: Promise<boolean> | null;
  /** A change arrived during the reload: read again before settling. */
  again: boolean;
  lastError: unknown;
  /** `fg:epoch` when the copy was read: after a full republication revisions start afresh. */
  epoch: string | null;
}

/** Cap on remembered unknown subdomains (random Host headers must not grow memory). */
const MAX_NEGATIVE = 10_000;
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Projects (routes, prepared flows, ports) and subdomain → project id, cached in memory.
 *
 * Freshness: a `fg:changes` message makes requests for that project wait for a re-read (the
 * control plane publishes after its MULTI, so the re-read sees the new state); `fg:config-seq`
 * and `fg:epoch` are polled, and any change re-validates every cached project, so a lost
 * message cannot leave stale config in place. A published revision lower than the cached one
 * is ignored. Subdomain mappings are checked against the project's own subdomain: a mismatch
 * re-reads both, so a renamed project stops answering at its old address at once.
 * While Redis is unreachable the cached copies keep serving.
 */
export class ProjectCache {
  private readonly subdomains = new Map<string, string | null>();
  private negativeCount = 0;
  private readonly subLookups = new Map<string, Promise<string | null>>();
  private readonly slots = new Map<string, ProjectSlot>();
  /** Revision reads of this loop turn, by project (revisionOf). */
  private readonly revisionReads = new Map<string, Promise<string | null>>();
  private readonly endRevisionTurn = (): void => this.revisionReads.clear();
  /** Bumped by every invalidation: a subdomain read that started earlier is used but not cached. */
  private generation = 0;
  private lastSeq: string | null = null;
  private lastEpoch: string | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private polling = false;
  private stopped = false;
  private subscriberWasReady = false;

  constructor(private readonly options: ProjectCacheOptions) {}

  async start(): Promise<void> {
    const { subscriber, redis } = this.options;
    subscriber.on('message', this.onMessage);
    subscriber.on('ready', this.onSubscriberReady);
    await subscriber.subscribe(CHANGES_CHANNEL);
    this.subscriberWasReady = true;
    [this.lastSeq, this.lastEpoch] = await Promise.all([redis.get(CONFIG_SEQ_KEY), redis.get(EPOCH_KEY)]);
    this.pollTimer = setInterval(() => void this.poll(), this.options.pollMs);
    this.pollTimer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.options.subscriber.off('message', this.onMessage);
    this.options.subscriber.off('ready', this.onSubscriberReady);
  }

  /**
   * The hot path: the project when it is cached and settled, null when the subdomain is
   * known to be unused, undefined when `resolve` must be awaited.
   */
  peek(subdomain: string): LoadedProject | null | undefined {
    const projectId = this.subdomains.get(subdomain);
    if (projectId === undefined) return undefined;
    if (projectId === null) {
      this.options.onLookup?.('subdomain', true);
      return null;
    }
    const slot = this.slots.get(projectId);
    if (slot === undefined || slot.loading !== null) return undefined;
    const project = slot.project;
    if (project === null || project.subdomain !== subdomain) return undefined;
    this.options.onLookup?.('project', true);
    return project;
  }

  /** Rejects when Redis is needed and unreachable. */
  async resolve(subdomain: string): Promise<LoadedProject | null> {
    for (let attempt = 0; attempt < 2; attempt++) {
      let projectId = this.subdomains.get(subdomain);
      if (projectId === undefined) {
        if (!SUBDOMAIN.test(subdomain)) return null;
        projectId = await this.lookupSubdomain(subdomain);
      }
      if (projectId === null) return null;
      const project = await this.projectById(projectId);
      if (project !== null && project.subdomain === subdomain) return project;
      // The mapping or the project copy is stale: read both again.
      if (this.subdomains.get(subdomain) === projectId) this.subdomains.delete(subdomain);
      const slot = this.slots.get(projectId);
      if (slot && attempt === 0) await this.refresh(projectId, slot);
    }
    return null;
  }

  /**
   * The newest copy of `project`, for a request that must not run on a stale one (a flow that
   * reads secrets, any preview request): one GET of the project's revision, and a re-read when
   * Redis has a newer document (a secret change or Save whose announcement is still on its way).
   * null: the project was deleted meanwhile. Rejects when Redis is unreachable.
   */
  async fresh(project: LoadedProject): Promise<LoadedProject | null> {
    const revision = await this.revisionOf(project.id);
    const slot = this.slots.get(project.id);
    if (revision === null || Number(revision) <= project.revision || slot === undefined) return project;
    if (slot.project === null || slot.project.revision < Number(revision)) await this.refresh(project.id, slot);
    return slot.project;
  }

  /**
   * The project's revision in Redis, one GET shared by the requests of one loop turn: every one
   * of them arrived before the GET was sent (requests are read at the start of a turn), so each
   * still sees every change answered before it was sent. Under load a project's freshness costs
   * Redis one read per turn instead of one per request.
   */
  private revisionOf(projectId: string): Promise<string | null> {
    let read = this.revisionReads.get(projectId);
    if (read === undefined) {
      read = this.options.redis.get(freshnessKey(projectId));
      if (this.revisionReads.size === 0) setImmediate(this.endRevisionTurn);
      this.revisionReads.set(projectId, read);
    }
    return read;
  }

  /** Re-reads every cached project (used after a missed message, a reconnect or a republish). */
  async revalidateAll(): Promise<boolean> {
    this.invalidateSubdomainCaches();
    this.options.onDescriptionChanged?.(null);
    const results = await Promise.all([...this.slots].map(([projectId, slot]) => this.refresh(projectId, slot)));
    return results.every(Boolean);
  }

  get size(): number {
    return this.slots.size;
  }

  private readonly onMessage = (channel: string, message: string): void => {
    if (channel !== CHANGES_CHANNEL || this.stopped) return;
    let change: ConfigChange;
    try {
      change = JSON.parse(message) as ConfigChange;
    } catch {
      this.options.logger.warn({ message: message.slice(0, 200) }, 'unreadable config change message; re-reading all');
      void this.revalidateAll();
      return;
    }
    if (change.type === 'description' && typeof change.project_id === 'string') {
      this.options.onDescriptionChanged?.(change.project_id);
    } else if ((change.type === 'project' || change.type === 'project_deleted') && typeof change.project_id === 'string') {
      if (change.type === 'project_deleted') this.options.onDescriptionChanged?.(change.project_id);
      this.invalidateSubdomainCaches();
      const slot = this.slots.get(change.project_id);
      if (slot) void this.refresh(change.project_id, slot);
    } else {
      void this.revalidateAll();
    }
  };

  private readonly onSubscriberReady = (): void => {
    // A reconnect: messages sent while the connection was down are lost.
    if (this.subscriberWasReady && !this.stopped) void this.revalidateAll();
  };

  private async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      const { redis } = this.options;
      const [seq, epoch] = await Promise.all([redis.get(CONFIG_SEQ_KEY), redis.get(EPOCH_KEY)]);
      if (seq !== this.lastSeq || epoch !== this.lastEpoch) {
        if (await this.revalidateAll()) {
          this.lastSeq = seq;
          this.lastEpoch = epoch;
        }
      }
    } catch (error) {
      this.options.logger.debug({ err: error }, 'config poll failed');
    } finally {
      this.polling = false;
    }
  }

  private invalidateSubdomainCaches(): void {
    this.generation++;
    if (this.negativeCount > 0) {
      for (const [subdomain, projectId] of this.subdomains) if (projectId === null) this.subdomains.delete(subdomain);
      this.negativeCount = 0;
    }
  }

  private lookupSubdomain(subdomain: string): Promise<string | null> {
    let pending = this.subLookups.get(subdomain);
    if (pending) return pending;
    this.options.onLookup?.('subdomain', false);
    const generation = this.generation;
    pending = this.options.redis
      .get(subdomainKey(subdomain))
      .then((projectId) => {
        if (generation === this.generation && !this.stopped) {
          if (projectId !== null) this.subdomains.set(subdomain, projectId);
          else if (this.negativeCount < MAX_NEGATIVE) {
            this.subdomains.set(subdomain, null);
            this.negativeCount++;
          }
        }
        return projectId;
      })
      .finally(() => this.subLookups.delete(subdomain));
    this.subLookups.set(subdomain, pending);
    return pending;
  }

  private async projectById(projectId: string): Promise<LoadedProject | null> {
    let slot = this.slots.get(projectId);
    if (!slot) {
      this.options.onLookup?.('project', false);
      slot = { project: null, loaded: false, loading: null, again: false, lastError: null, epoch: null };
      this.slots.set(projectId, slot);
      void this.refresh(projectId, slot);
    }
    if (slot.loading) await slot.loading;
    if (!slot.loaded) {
      if (this.slots.get(projectId) === slot) this.slots.delete(projectId);
      throw slot.lastError ?? new Error('project could not be loaded');
    }
    return slot.project;
  }

  /** Reads the project again; resolves false (keeping the cached copy) when Redis failed. */
  private refresh(projectId: string, slot: ProjectSlot): Promise<boolean> {
    if (slot.loading) {
      slot.again = true;
      return slot.loading;
    }
    const run = async (): Promise<boolean> => {
      try {
        do {
          slot.again = false;
          await this.read(projectId, slot);
        } while (slot.again);
        return true;
      } catch (error) {
        slot.lastError = error;
        this.options.logger.warn({ err: error, project_id: projectId }, 'project config read failed; serving the cached copy');
        return false;
      } finally {
        slot.loading = null;
      }
    };
    slot.loading = run();
    return slot.loading;
  }

  private async read(projectId: string, slot: ProjectSlot): Promise<void> {
    const { redis } = this.options;
    const [raw, epoch] = await Promise.all([redis.get(projectKey(projectId)), redis.get(EPOCH_KEY)]);
    if (raw === null) {
      // Deleted projects leave a marker. Without one, Redis (or, on a cluster, the project's
      // shard) lost the document: keep serving the cached copy until the control plane has
      // republished, which it ends with a new `fg:epoch`; missing after that, it is gone.
      const deleted = (await redis.exists(projectDeletedKey(projectId))) === 1;
      if (!deleted && slot.loaded && slot.project !== null && (epoch === null || epoch === slot.epoch)) return;
      slot.project = null;
      slot.loaded = true;
      return;
    }
    const published = parsePublishedProject(raw);
    const current = slot.project;
    const sameEpoch = epoch === slot.epoch;
    slot.epoch = epoch;
    slot.loaded = true;
    if (current !== null && sameEpoch && published.revision <= current.revision) return;
    slot.project = this.options.build(published, current);
  }
}
