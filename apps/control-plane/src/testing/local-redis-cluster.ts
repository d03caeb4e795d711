import path from 'node:path';

/** A throw-away 3-master + 3-replica Redis Cluster (scripts/lib/redis-cluster.js). */
export interface LocalCluster {
  /** `host:port,…`, the value of REDIS_CLUSTER_NODES. */
  nodes: string;
  stop(): Promise<void>;
}

export function startLocalCluster(): Promise<LocalCluster> {
  const script = path.resolve(__dirname, '../../../../scripts/lib/redis-cluster.js');
  return (require(script) as { startRedisCluster(): Promise<LocalCluster> }).startRedisCluster();
}
