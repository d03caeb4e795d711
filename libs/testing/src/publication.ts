import {
  ANNOUNCE_SCRIPT,
  apiKeyRecordKey,
  CHANGES_CHANNEL,
  CONFIG_SEQ_KEY,
  EPOCH_KEY,
  formatApiKey,
  openApiKey,
  projectDeletedKey,
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
import { isCluster, sha256Hex, type RedisClient } from '@flowgate/platform';
import { randomBytes, randomUUID } from 'node:crypto';

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
  /** A flow document with connections of its own (loops, error paths); replaces `blocks`. */
  flow?: unknown;
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
  const result = compileFlow({ flow: spec.flow ?? linearFlow(spec.blocks), settings });
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
  projectId: string;
}

/**
 * Writes serving state to Redis the way the control plane does (MULTI, then PUBLISH on
 * `fg:changes`; on a Redis Cluster one MULTI per slot, in the control plane's order), with
 * unique names, and removes what it wrote in `cleanup()`.
 */
export class TestPublisher {
  private readonly written = new Set<string>();
  private readonly cluster: boolean;

  constructor(private readonly redis: RedisClient) {
    this.cluster = isCluster(redis);
  }

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
    const dropSubdomain = options.previousSubdomain && options.previousSubdomain !== project.subdomain ? options.previousSubdomain : null;
    if (this.cluster) {
      await this.redis.set(subdomainKey(project.subdomain), project.id);
      await this.redis.set(projectKey(project.id), JSON.stringify(project));
      if (dropSubdomain) await this.redis.del(subdomainKey(dropSubdomain));
    } else {
      const multi = this.redis.multi();
      if (dropSubdomain) multi.del(subdomainKey(dropSubdomain));
      multi.set(subdomainKey(project.subdomain), project.id);
      multi.set(projectKey(project.id), JSON.stringify(project));
      await multi.exec();
    }
    this.written.add(subdomainKey(project.subdomain)).add(projectKey(project.id));
    await this.announce({ type: 'project', project_id: project.id, revision: project.revision }, options.notify);
  }

  /** Writes the project's OpenAPI document as the control plane does; `notify: false` as if only the document changed, unannounced. */
  async describe(project: PublishedProject, document: unknown, options: { notify?: boolean } = {}): Promise<void> {
    await this.redis.set(openApiKey(project.id), JSON.stringify(document));
    this.written.add(openApiKey(project.id));
    if (options.notify !== false) await this.announce({ type: 'description', project_id: project.id });
  }

  async unpublish(project: PublishedProject): Promise<void> {
    // A deleted project is told apart from a Redis that lost its state by the deletion marker.
    await this.redis.set(EPOCH_KEY, `test-${randomUUID()}`, 'NX');
    await this.redis.multi().del(projectKey(project.id)).set(projectDeletedKey(project.id), '1', 'EX', 600).exec();
    await this.redis.del(subdomainKey(project.subdomain));
    this.written.add(projectDeletedKey(project.id));
    await this.announce({ type: 'project_deleted', project_id: project.id });
  }

  async createKey(projectId: string, options: { permission?: KeyPermission; ratelimit_min?: number } = {}): Promise<TestKey> {
    const key = formatApiKey((size) => randomBytes(size));
    const hash = sha256Hex(key);
    const id = randomUUID();
    await this.redis.hset(apiKeyRecordKey(projectId, hash), {
      id,
      project_id: projectId,
      permission: options.permission ?? 'user',
      ratelimit_min: String(options.ratelimit_min ?? 1000),
    });
    this.written.add(apiKeyRecordKey(projectId, hash)).add(rateLimitKey(projectId, hash));
    return { key, id, hash, projectId };
  }

  async deleteKey(key: TestKey): Promise<void> {
    await this.redis.del(apiKeyRecordKey(key.projectId, key.hash), rateLimitKey(key.projectId, key.hash));
  }

  async cleanup(): Promise<void> {
    // One key per command: on a cluster the keys live in different slots.
    await Promise.all([...this.written].map((key) => this.redis.del(key)));
    this.written.clear();
  }

  /** As the control plane announces (ANNOUNCE_SCRIPT); `notify: false`: the counter moves, the message is lost. */
  private async announce(change: ConfigChange, notify = true): Promise<void> {
    if (notify) await this.redis.eval(ANNOUNCE_SCRIPT, 1, CONFIG_SEQ_KEY, CHANGES_CHANNEL, JSON.stringify(change));
    else await this.redis.incr(CONFIG_SEQ_KEY);
  }
}
