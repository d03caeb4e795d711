import {
  CHANGES_CHANNEL,
  CONFIG_SEQ_KEY,
  EPOCH_KEY,
  freshnessKey,
  projectDeletedKey,
  projectKey,
  subdomainKey,
  type AnnouncedChange,
  type PublishedProject,
} from '@flowgate/contracts';
import type { Logger, RedisClient } from '@flowgate/platform';
import { LRUCache } from 'lru-cache';
import { AnnouncementTracker } from './announcement-tracker';
import { parsePublishedProject, type LoadedProject } from './loaded-project';

export interface ProjectCacheOptions {
  /** Command connection. */
  redis: RedisClient;
  /** A connection of its own: a subscribed connection can run nothing else. */
  subscriber: RedisClient;
  logger: Logger;
  pollMs: number;
  /** Bound on the estimated memory of the cached projects (least recently used out first). */
  maxBytes: number;
  build(published: PublishedProject, previous: LoadedProject | null): LoadedProject;
  onLookup?(cache: 'subdomain' | 'project', hit: boolean): void;
  /**
   * The project's API description may have changed without a new publication (a rename; null:
   * any project's, after a missed message); or the project is gone.
   */
  onDescriptionChanged?(projectId: string | null): void;
  /**
   * The project's slot left the cache (evicted by the bound, or the project was deleted): what
   * other parts keep per project can go too, so that their memory follows the bound.
   */
  onDropped?(projectId: string): void;
}

interface ProjectSlot {
  /** null: not published (deleted) or never loaded. */
  project: LoadedProject | null;
  /** True after the first successful read from Redis. */
  loaded: boolean;
  /** The read in progress. */
  reading: Promise<boolean> | null;
  /**
   * Requests wait for the read in progress: a change announced for this project, or a first
   * load. A re-read of everything (after a missed announcement) does not hold them.
   */
  blocking: boolean;
  /** Estimated heap of the loaded copy (bytes), what the cache's bound counts. */
  size: number;
  /** A change arrived during the reload: read again before settling. */
  again: boolean;
  lastError: unknown;
  /** `fg:epoch` when the copy was read: after a full republication revisions start afresh. */
  epoch: string | null;
}

/** Cap on remembered unknown subdomains (random Host headers must not grow memory). */
const MAX_NEGATIVE = 10_000;
/** Projects re-read at once by a full re-read: a request's own read is never queued behind thousands. */
const REVALIDATE_CONCURRENCY = 8;
/** What a slot counts before its document is read. */
const EMPTY_SLOT_BYTES = 1024;
/**
 * Memory a held project costs the process, per character of its published document: what the
 * bound bounds is the gateway's RSS, so the estimate is calibrated on RSS, not on live heap.
 * Gateways that had served each of 2 000 projects (five endpoints each: set_variable →
 * manipulate_text → respond, 4.5 KB documents) grew 42–47 KB of RSS per held project once idle
 * (`npm run bench -- tenants`, with the default bound and a 16 MB one), of which 32 KB is live
 * heap (heap snapshots) and the rest the heap V8 keeps committed around it. 11 bytes a character
 * (50 KB a project) errs high; 7, the live heap alone, let a 16 MB bound grow RSS by 21 MB.
 */
const MEMORY_BYTES_PER_DOCUMENT_CHAR = 11;
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Projects (routes, prepared flows, ports) and subdomain → project id, cached in memory.
 *
 * Freshness: a `fg:changes` message names one project, and only that project is re-read
 * (requests for it wait for the re-read; the control plane publishes after its MULTI, so the
 * re-read sees the new state); a deleted project's slot goes at once. `fg:config-seq` and
 * `fg:epoch` are polled: an announcement that never arrived (announcement-tracker.ts) or a new
 * epoch (Redis lost its state) re-reads every cached project, a few at a time, while requests
 * keep being served from the copies held. A published revision lower than the cached one is
 * ignored. Subdomain mappings are checked against the project's own subdomain: a mismatch
 * re-reads both, so a renamed project stops answering at its old address at once.
 * While Redis is unreachable the cached copies keep serving.
 *
 * Bounded: the slots are an LRU counting each project's estimated memory against `maxBytes`; an
 * evicted project is read again on its next request.
 */
export class ProjectCache {
  private readonly subdomains = new Map<string, string | null>();
  private negativeCount = 0;
  private readonly subLookups = new Map<string, Promise<string | null>>();
  /**
   * Boxed: the cache counts an entry's size when it is set, and a slot keeps its identity
   * (reads in flight hold it), so a new size is a new box around the same slot.
   */
  private readonly slots: LRUCache<string, { slot: ProjectSlot }>;
  private readonly announcements = new AnnouncementTracker();
  /** Revision reads of this loop turn, by project (revisionOf). */
  private readonly revisionReads = new Map<string, Promise<string | null>>();
  private readonly endRevisionTurn = (): void => this.revisionReads.clear();
  /** Bumped by every invalidation: a subdomain read that started earlier is used but not cached. */
  private generation = 0;
  private lastEpoch: string | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private polling = false;
  private stopped = false;
  private subscriberWasReady = false;

  constructor(private readonly options: ProjectCacheOptions) {
    this.slots = new LRUCache({
      maxSize: options.maxBytes,
      sizeCalculation: (box) => box.slot.size,
      noDisposeOnSet: true,
      // Evicted or dropped: its subdomain mapping goes too (the mappings stay as few as the slots),
      // and so does what others keep per project.
      dispose: (box, projectId) => {
        this.forgetSubdomain(box.slot, projectId);
        this.options.onDropped?.(projectId);
      },
    });
  }

  async start(): Promise<void> {
    const { subscriber, redis } = this.options;
    subscriber.on('message', this.onMessage);
    subscriber.on('ready', this.onSubscriberReady);
    await subscriber.subscribe(CHANGES_CHANNEL);
    this.subscriberWasReady = true;
    const [seq, epoch] = await Promise.all([redis.get(CONFIG_SEQ_KEY), redis.get(EPOCH_KEY)]);
    this.announcements.reset(seq);
    this.lastEpoch = epoch;
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
    const slot = this.slots.get(projectId)?.slot;
    if (slot === undefined || (slot.reading !== null && slot.blocking)) return undefined;
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
      const slot = this.slots.get(projectId)?.slot;
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
    const slot = this.slots.get(project.id)?.slot;
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

  /**
   * Re-reads every cached project, a few at a time, serving the held copies meanwhile (used
   * after a missed announcement, a reconnect or a new epoch); false when a read failed.
   */
  async revalidateAll(): Promise<boolean> {
    this.invalidateSubdomainCaches();
    this.options.onDescriptionChanged?.(null);
    const ids = [...this.slots.keys()];
    let next = 0;
    let ok = true;
    const worker = async (): Promise<void> => {
      while (next < ids.length) {
        const projectId = ids[next++]!;
        const slot = this.slots.peek(projectId)?.slot;
        if (slot && !(await this.refresh(projectId, slot, false))) ok = false;
      }
    };
    await Promise.all(Array.from({ length: Math.min(REVALIDATE_CONCURRENCY, ids.length) }, worker));
    return ok;
  }

  /** Projects cached. */
  get size(): number {
    return this.slots.size;
  }

  /** Estimated heap of the cached projects (bytes), at most `maxBytes`. */
  get bytes(): number {
    return this.slots.calculatedSize;
  }

  private readonly onMessage = (channel: string, message: string): void => {
    if (channel !== CHANGES_CHANNEL || this.stopped) return;
    let change: AnnouncedChange;
    try {
      change = JSON.parse(message) as AnnouncedChange;
    } catch {
      this.options.logger.warn({ message: message.slice(0, 200) }, 'unreadable config change message; if it announced a change, the poll finds it missed and re-reads all');
      return;
    }
    this.announcements.receive(change.seq);
    if (change.type === 'description' && typeof change.project_id === 'string') {
      this.options.onDescriptionChanged?.(change.project_id);
    } else if (change.type === 'project_deleted' && typeof change.project_id === 'string') {
      this.options.onDescriptionChanged?.(change.project_id);
      this.invalidateSubdomainCaches();
      this.slots.delete(change.project_id);
    } else if (change.type === 'project' && typeof change.project_id === 'string') {
      this.invalidateSubdomainCaches();
      const slot = this.slots.peek(change.project_id)?.slot;
      if (slot) void this.refresh(change.project_id, slot);
    }
    // Anything else (a republish, a message of a newer control plane) changes the epoch or
    // `fg:config-seq`, which the poll compares.
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
      const stale = epoch !== this.lastEpoch || this.announcements.check(seq) === 'missed';
      if (stale && (await this.revalidateAll())) {
        this.announcements.reset(seq);
        this.lastEpoch = epoch;
      }
    } catch (error) {
      this.options.logger.debug({ err: error }, 'config poll failed');
    } finally {
      this.polling = false;
    }
  }

  private forgetSubdomain(slot: ProjectSlot, projectId: string): void {
    const subdomain = slot.project?.subdomain;
    if (subdomain !== undefined && this.subdomains.get(subdomain) === projectId) this.subdomains.delete(subdomain);
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
    let slot = this.slots.get(projectId)?.slot;
    if (!slot) {
      this.options.onLookup?.('project', false);
      slot = { project: null, loaded: false, reading: null, blocking: true, size: EMPTY_SLOT_BYTES, again: false, lastError: null, epoch: null };
      this.slots.set(projectId, { slot });
      void this.refresh(projectId, slot);
    }
    if (slot.reading && (slot.blocking || !slot.loaded)) await slot.reading;
    if (!slot.loaded) {
      if (this.slots.peek(projectId)?.slot === slot) this.slots.delete(projectId);
      throw slot.lastError ?? new Error('project could not be loaded');
    }
    return slot.project;
  }

  /**
   * Reads the project again; resolves false (keeping the cached copy) when Redis failed.
   * `blocking`: requests for the project wait for it (a change announced for it).
   */
  private refresh(projectId: string, slot: ProjectSlot, blocking = true): Promise<boolean> {
    if (slot.reading) {
      if (blocking) {
        slot.blocking = true;
        slot.again = true;
      }
      return slot.reading;
    }
    slot.blocking = blocking;
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
        slot.reading = null;
      }
    };
    slot.reading = run();
    return slot.reading;
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
      this.resize(projectId, slot, EMPTY_SLOT_BYTES);
      return;
    }
    const published = parsePublishedProject(raw);
    const current = slot.project;
    const sameEpoch = epoch === slot.epoch;
    slot.epoch = epoch;
    slot.loaded = true;
    if (current !== null && sameEpoch && published.revision <= current.revision) return;
    slot.project = this.options.build(published, current);
    this.resize(projectId, slot, EMPTY_SLOT_BYTES + Math.ceil(raw.length * MEMORY_BYTES_PER_DOCUMENT_CHAR));
  }

  /** A slot still cached is counted at its new size (which may evict the least recently used). */
  private resize(projectId: string, slot: ProjectSlot, size: number): void {
    if (slot.size === size) return;
    slot.size = size;
    if (this.slots.peek(projectId)?.slot === slot) this.slots.set(projectId, { slot });
  }
}
