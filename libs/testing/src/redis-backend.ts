import { createRedisClient, type RedisClient, type RedisTarget } from '@flowgate/platform';
import path from 'node:path';

// scripts/ is plain CommonJS outside the Nx projects (no import path reaches it): required by
// file name, typed by its declaration file.
type RedisClusterScript = typeof import('../../../scripts/lib/redis-cluster');
export type LocalRedisCluster = import('../../../scripts/lib/redis-cluster').LocalRedisCluster;

/** A throw-away 3-master + 3-replica Redis Cluster on free ports (scripts/lib/redis-cluster.js). */
export const startRedisCluster: RedisClusterScript['startRedisCluster'] = (options) =>
  (require(path.resolve(__dirname, '../../../scripts/lib/redis-cluster.js')) as RedisClusterScript).startRedisCluster(options);

export type RedisBackendKind = 'single Redis' | 'Redis Cluster';

/** The shared test Redis, or a 3-master + 3-replica cluster of the suite's own. */
export interface RedisBackend {
  kind: RedisBackendKind;
  target: RedisTarget;
  /** Environment for gateway and worker processes. */
  env: Record<string, string>;
  cluster: LocalRedisCluster | null;
  /** A new client (single node or cluster); the caller closes it. */
  client(options?: Parameters<typeof createRedisClient>[1]): RedisClient;
  stop(): Promise<void>;
}

export interface RedisBackendOptions {
  /**
   * Single Redis only: a database of the suite's own. `fg:epoch` and `fg:config-seq` are one key
   * per Redis, and other suites running at the same time reset them (the control plane's
   * lost-state tests); a suite that watches them needs a keyspace nobody else writes.
   */
  database?: number;
}

export async function startRedisBackend(kind: RedisBackendKind, options: RedisBackendOptions = {}): Promise<RedisBackend> {
  const shared = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  if (options.database !== undefined) shared.pathname = `/${options.database}`;
  const url = shared.toString();
  const cluster = kind === 'Redis Cluster' ? await startRedisCluster() : null;
  const target: RedisTarget = { url, clusterNodes: cluster ? cluster.nodes.split(',') : null };
  return {
    kind,
    target,
    env: cluster ? { REDIS_CLUSTER_NODES: cluster.nodes } : options.database !== undefined ? { REDIS_URL: url } : {},
    cluster,
    client: (options) => createRedisClient(target, options),
    stop: async () => cluster?.stop(),
  };
}
