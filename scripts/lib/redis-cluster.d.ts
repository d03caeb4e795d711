// Types of redis-cluster.js for the TypeScript that starts one (tests, benchmarks).

export interface LocalRedisCluster {
  ports: number[];
  /** `host:port,…` — the value of REDIS_CLUSTER_NODES. */
  nodes: string;
  /** The port of the master serving `key`'s slot (as the live nodes see it). */
  masterOf(key: string): number | null;
  /** The ports of `masterPort`'s replicas. */
  replicasOf(masterPort: number): number[];
  /** kill -9 of one node. */
  kill(port: number): Promise<void>;
  /** Starts a killed node again: same cluster identity, empty data. */
  restart(port: number): Promise<void>;
  /** Waits until every live node reports `cluster_state:ok`. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  cli(port: number, args: string[], options?: { quiet?: boolean }): string;
  stop(): Promise<void>;
}

/** 3 masters and 3 replicas on free ports by default, no persistence. */
export function startRedisCluster(options?: { masters?: number; replicasPerMaster?: number; nodeTimeoutMs?: number }): Promise<LocalRedisCluster>;
