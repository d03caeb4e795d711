import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { z } from 'zod';

/** A single Redis or a Redis Cluster: both run every command Flowgate sends (one slot per script or MULTI). */
export type RedisClient = Redis | Cluster;

/** Where Redis is: `REDIS_URL`, or the seeds of `REDIS_CLUSTER_NODES` (then the URL lends only its password and TLS). */
export interface RedisTarget {
  url: string;
  /** `host:port` seeds; null in single-node mode. */
  clusterNodes: string[] | null;
}

/** `REDIS_CLUSTER_NODES`: empty or unset = single node. */
export const redisClusterNodesVariable = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(',').map((node) => node.trim()).filter(Boolean))
  .refine((nodes) => nodes.every((node) => /^[^:\s]+:\d{1,5}$/.test(node)), {
    message: 'must be a comma-separated list of host:port seeds (e.g. 10.0.0.1:7000,10.0.0.2:7000)',
  })
  .transform((nodes) => (nodes.length > 0 ? nodes : null))
  .describe(
    "comma-separated `host:port` seeds of a Redis Cluster; switches every app to cluster mode (then `REDIS_URL` only lends user, password and `rediss://`; BullMQ's prefix becomes `{BULLMQ_PREFIX}`)",
  )
  .meta({ defaultText: '(empty: single Redis)' });

export function splitHostPort(node: string): { host: string; port: number } {
  const index = node.lastIndexOf(':');
  return { host: node.slice(0, index).replace(/^\[|\]$/g, ''), port: Number(node.slice(index + 1)) };
}

export interface RedisClientOptions {
  /** Options of every node connection (timeouts, retries, connection name). */
  node?: RedisOptions;
  /** Options of the cluster client only. */
  cluster?: Partial<ClusterOptions>;
}

/**
 * A client for the target. In cluster mode every node connection uses REDIS_URL's user,
 * password and TLS, and commands issued in one event-loop turn go to each node in one write
 * (ioredis auto-pipelining).
 */
export function createRedisClient(target: RedisTarget, options: RedisClientOptions = {}): RedisClient {
  if (target.clusterNodes === null) return new Redis(target.url, options.node ?? {});
  const url = new URL(target.url);
  const credentials: RedisOptions = {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
  return new Cluster(target.clusterNodes.map(splitHostPort), {
    enableAutoPipelining: true,
    // A slot whose master is gone: ioredis re-reads the slot map and retries for a short while.
    retryDelayOnClusterDown: 100,
    retryDelayOnFailover: 100,
    slotsRefreshTimeout: 2000,
    ...options.cluster,
    redisOptions: { ...credentials, ...options.node },
  });
}

export const isCluster = (client: RedisClient): client is Cluster => client instanceof Cluster;

/**
 * BullMQ's key prefix. In cluster mode it becomes a hash tag (`{bull}`) so every key of a
 * queue lives in one slot, as BullMQ's Lua scripts require; producers and the worker derive
 * it the same way from BULLMQ_PREFIX.
 */
export function bullmqPrefix(prefix: string, target: RedisTarget): string {
  return target.clusterNodes === null || prefix.startsWith('{') ? prefix : `{${prefix}}`;
}
