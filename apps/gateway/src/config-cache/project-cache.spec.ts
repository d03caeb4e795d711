import { CHANGES_CHANNEL, projectKey, subdomainKey, type PublishedProject } from '@flowgate/contracts';
import { createLogger, type RedisClient } from '@flowgate/platform';
import type { LoadedProject } from './loaded-project';
import { ProjectCache } from './project-cache';

/** The few Redis commands the cache sends; `held` GETs wait until released, in the order sent. */
class FakeRedis {
  readonly values = new Map<string, string>();
  held = false;
  readonly waiting: Array<{ key: string; release: () => void }> = [];
  private onMessage: ((channel: string, message: string) => void) | null = null;

  get(key: string): Promise<string | null> {
    const value = () => this.values.get(key) ?? null;
    if (!this.held) return Promise.resolve(value());
    return new Promise((resolve) => this.waiting.push({ key, release: () => resolve(value()) }));
  }

  exists(key: string): Promise<number> {
    return Promise.resolve(this.values.has(key) ? 1 : 0);
  }

  subscribe(): Promise<void> {
    return Promise.resolve();
  }

  on(event: string, listener: (channel: string, message: string) => void): this {
    if (event === 'message') this.onMessage = listener;
    return this;
  }

  off(): this {
    return this;
  }

  publish(message: object): void {
    this.onMessage?.(CHANGES_CHANNEL, JSON.stringify(message));
  }

  releaseAll(): void {
    this.held = false;
    for (const { release } of this.waiting.splice(0)) release();
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function project(n: number, revision = 1): PublishedProject {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    subdomain: `tenant-${n}`,
    require_auth: false,
    revision,
    integrations: { text_generation: null, email: null },
    routes: [],
  };
}

describe('ProjectCache while it re-reads everything (a missed announcement, a new epoch)', () => {
  let redis: FakeRedis;
  let cache: ProjectCache;
  const projects = Array.from({ length: 20 }, (_, n) => project(n));

  beforeEach(async () => {
    redis = new FakeRedis();
    for (const p of projects) {
      redis.values.set(subdomainKey(p.subdomain), p.id);
      redis.values.set(projectKey(p.id), JSON.stringify(p));
    }
    const client = redis as unknown as RedisClient;
    cache = new ProjectCache({
      redis: client,
      subscriber: client,
      logger: createLogger('test', 'silent'),
      pollMs: 3_600_000,
      maxBytes: 64 * 1024 * 1024,
      build: (published) => ({ id: published.id, subdomain: published.subdomain, revision: published.revision }) as LoadedProject,
    });
    await cache.start();
    for (const p of projects) await cache.resolve(p.subdomain);
  });

  afterEach(() => cache.stop());

  it('serves every held project from its copy until the fresh one is in (never a stall)', async () => {
    redis.held = true;
    const done = cache.revalidateAll();
    await flush();
    expect(redis.waiting.length).toBeGreaterThan(0);
    for (const p of projects) expect(cache.peek(p.subdomain)?.revision).toBe(1);
    redis.releaseAll();
    await expect(done).resolves.toBe(true);
  });

  it('reads a project announced meanwhile at once, ahead of the projects still queued, and holds its requests for it', async () => {
    redis.held = true;
    void cache.revalidateAll();
    await flush();
    const started = new Set(redis.waiting.map(({ key }) => key));
    // The least recently used: the last one a full re-read comes to.
    const changed = projects[0]!;
    expect(started.has(projectKey(changed.id))).toBe(false);

    redis.values.set(projectKey(changed.id), JSON.stringify({ ...changed, revision: 2 }));
    redis.publish({ type: 'project', project_id: changed.id, revision: 2, seq: 1 });
    await flush();
    // Eight projects at a time: the changed one is read beside them, not after the other eleven.
    expect(redis.waiting.filter(({ key }) => key.startsWith('fg:project:')).map(({ key }) => key)).toEqual([...started].filter((key) => key.startsWith('fg:project:')).concat(projectKey(changed.id)));
    expect(cache.peek(changed.subdomain)).toBeUndefined();
    expect(cache.peek(projects[1]!.subdomain)?.revision).toBe(1);

    redis.releaseAll();
    expect((await cache.resolve(changed.subdomain))?.revision).toBe(2);
  });

  it('drops a deleted project at once, also in the middle of a re-read', async () => {
    redis.held = true;
    void cache.revalidateAll();
    await flush();
    const deleted = projects[3]!;
    redis.publish({ type: 'project_deleted', project_id: deleted.id, seq: 1 });
    expect(cache.size).toBe(projects.length - 1);
    expect(cache.peek(deleted.subdomain)).toBeUndefined();
    redis.releaseAll();
  });
});

describe('ProjectCache tells what leaves it', () => {
  it('names each project evicted by the bound or deleted, so that what is kept per project elsewhere goes too', async () => {
    const redis = new FakeRedis();
    const projects = Array.from({ length: 20 }, (_, n) => project(n));
    for (const p of projects) {
      redis.values.set(subdomainKey(p.subdomain), p.id);
      redis.values.set(projectKey(p.id), JSON.stringify(p));
    }
    const dropped: string[] = [];
    const client = redis as unknown as RedisClient;
    const cache = new ProjectCache({
      redis: client,
      subscriber: client,
      logger: createLogger('test', 'silent'),
      pollMs: 3_600_000,
      maxBytes: 12 * 1024,
      build: (published) => ({ id: published.id, subdomain: published.subdomain, revision: published.revision }) as LoadedProject,
      onDropped: (projectId) => dropped.push(projectId),
    });
    await cache.start();
    try {
      for (const p of projects) await cache.resolve(p.subdomain);
      const held = projects.filter((p) => cache.peek(p.subdomain) !== undefined).map((p) => p.id);
      expect(held.length).toBeGreaterThan(0);
      expect(held.length).toBeLessThan(projects.length);
      // The least recently used went, each named once; none that is still held.
      expect(dropped).toEqual(projects.map((p) => p.id).filter((id) => !held.includes(id)));

      const deleted = held.at(-1)!;
      redis.publish({ type: 'project_deleted', project_id: deleted, seq: 1 });
      expect(dropped.at(-1)).toBe(deleted);
    } finally {
      cache.stop();
    }
  });
});
