import {
  apiKeyRecordKey,
  CHANGES_CHANNEL,
  CONFIG_SEQ_KEY,
  EPOCH_KEY,
  formatApiKey,
  projectKey,
  rateLimitKey,
  subdomainKey,
  type ConfigChange,
  type EndpointAuth,
  type HttpMethod,
  type KeyPermission,
  type PublishedProject,
  type PublishedRoute,
} from '@flowgate/contracts';
import { compileFlow } from '@flowgate/flow-engine';
import { sha256Hex } from '@flowgate/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface Block {
  type: string;
  config?: Record<string, unknown>;
}

/** start → blocks in order (ids n1, n2, …). */
export function linearFlow(blocks: Block[]): unknown {
  const nodes = [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    ...blocks.map((block, i) => ({ id: `n${i + 1}`, type: block.type, position: { x: 0, y: 120 * (i + 1) }, config: block.config ?? {} })),
  ];
  const edges = blocks.map((_, i) => ({ id: `e${i + 1}`, source: i === 0 ? 'start' : `n${i}`, target: `n${i + 1}` }));
  return { nodes, edges };
}

export interface RouteSpec {
  path: string;
  method?: HttpMethod;
  auth?: EndpointAuth;
  query_params?: { key: string; default: string | null }[];
  blocks: Block[];
  endpoint_id?: string;
  version?: number;
}

/** A live route exactly as the control plane publishes it: the flow compiled by the real engine. */
export function publishedRoute(spec: RouteSpec): PublishedRoute {
  const settings = {
    name: spec.path,
    method: spec.method ?? 'GET',
    path: spec.path,
    auth: spec.auth ?? 'none',
    query_params: spec.query_params ?? [],
  };
  const result = compileFlow({ flow: linearFlow(spec.blocks), settings });
  if (!result.ok) throw new Error(`test flow does not compile: ${JSON.stringify(result.diagnostics)}`);
  return {
    endpoint_id: spec.endpoint_id ?? randomUUID(),
    name: settings.name,
    method: settings.method,
    path: settings.path,
    auth: settings.auth,
    query_params: settings.query_params,
    version: spec.version ?? 1,
    compiled: result.compiled,
  };
}

export const respond = (body: unknown, status = 200): Block => ({ type: 'respond', config: { status, body } });

export interface TestKey {
  key: string;
  id: string;
  hash: string;
}

/**
 * Writes serving state to Redis the way the control plane does (MULTI, then PUBLISH on
 * `fg:changes`), with unique names, and removes what it wrote in `cleanup()`.
 */
export class TestPublisher {
  private readonly written = new Set<string>();

  constructor(private readonly redis: Redis) {}

  newProject(routes: PublishedRoute[], overrides: Partial<PublishedProject> = {}): PublishedProject {
    return {
      id: randomUUID(),
      subdomain: `gw-${randomBytes(5).toString('hex')}`,
      require_auth: false,
      revision: 1,
      integrations: { text_generation: null, email: null },
      routes,
      ...overrides,
    };
  }

  /** Publishes (or re-publishes) a project; `notify: false` simulates a lost pub/sub message. */
  async publish(project: PublishedProject, options: { previousSubdomain?: string; notify?: boolean } = {}): Promise<void> {
    const multi = this.redis.multi();
    if (options.previousSubdomain && options.previousSubdomain !== project.subdomain) multi.del(subdomainKey(options.previousSubdomain));
    multi.set(subdomainKey(project.subdomain), project.id);
    multi.set(projectKey(project.id), JSON.stringify(project));
    multi.incr(CONFIG_SEQ_KEY);
    await multi.exec();
    this.written.add(subdomainKey(project.subdomain)).add(projectKey(project.id));
    if (options.notify !== false) await this.notify({ type: 'project', project_id: project.id, revision: project.revision });
  }

  async unpublish(project: PublishedProject): Promise<void> {
    // A deleted project is told apart from a Redis that lost its state by the epoch marker.
    await this.redis.set(EPOCH_KEY, `test-${randomUUID()}`, 'NX');
    await this.redis.multi().del(subdomainKey(project.subdomain)).del(projectKey(project.id)).incr(CONFIG_SEQ_KEY).exec();
    await this.notify({ type: 'project_deleted', project_id: project.id });
  }

  async createKey(projectId: string, options: { permission?: KeyPermission; ratelimit_min?: number } = {}): Promise<TestKey> {
    const key = formatApiKey((size) => randomBytes(size));
    const hash = sha256Hex(key);
    const id = randomUUID();
    await this.redis.hset(apiKeyRecordKey(hash), {
      id,
      project_id: projectId,
      permission: options.permission ?? 'user',
      ratelimit_min: String(options.ratelimit_min ?? 1000),
    });
    this.written.add(apiKeyRecordKey(hash)).add(rateLimitKey(hash));
    return { key, id, hash };
  }

  async deleteKey(key: TestKey): Promise<void> {
    await this.redis.del(apiKeyRecordKey(key.hash), rateLimitKey(key.hash));
  }

  async cleanup(): Promise<void> {
    if (this.written.size > 0) await this.redis.del(...this.written);
    this.written.clear();
  }

  private async notify(change: ConfigChange): Promise<void> {
    await this.redis.publish(CHANGES_CHANNEL, JSON.stringify(change));
  }
}
