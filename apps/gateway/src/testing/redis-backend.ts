import { createRedisClient, type RedisClient, type RedisTarget } from '@flowgate/platform';
import path from 'node:path';

/** What scripts/lib/redis-cluster.js hands back (plain CommonJS, typed here). */
export interface LocalRedisCluster {
  ports: number[];
  nodes: string;
  masterOf(key: string): number | null;
  replicasOf(masterPort: number): number[];
  kill(port: number): Promise<void>;
  restart(port: number): Promise<void>;
  waitHealthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export function startLocalRedisCluster(): Promise<LocalRedisCluster> {
  const script = path.resolve(__dirname, '../../../../scripts/lib/redis-cluster.js');
  return (require(script) as { startRedisCluster(): Promise<LocalRedisCluster> }).startRedisCluster();
}

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

export async function startRedisBackend(kind: RedisBackendKind): Promise<RedisBackend> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const cluster = kind === 'Redis Cluster' ? await startLocalRedisCluster() : null;
  const target: RedisTarget = { url, clusterNodes: cluster ? cluster.nodes.split(',') : null };
  return {
    kind,
    target,
    env: cluster ? { REDIS_CLUSTER_NODES: cluster.nodes } : {},
    cluster,
    client: (options) => createRedisClient(target, options),
    stop: async () => cluster?.stop(),
  };
}
