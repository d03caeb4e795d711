import type { PublishedProject } from '@flowgate/contracts';
import { createRedisClient, type RedisClient } from '@flowgate/platform';
import { type LocalRedisCluster, startRedisCluster, type TestKey, TestPublisher } from '@flowgate/testing';

/** The bench's project and key, published into a local 3-master + 3-replica Redis Cluster. */
export interface BenchCluster {
  cluster: LocalRedisCluster;
  /** Gateway environment: REDIS_CLUSTER_NODES. */
  env: Record<string, string>;
  key: TestKey;
  stop(): Promise<void>;
}

export async function startBenchCluster(project: PublishedProject, keyLimitPerMin: number): Promise<BenchCluster> {
  const cluster = await startRedisCluster();
  let client: RedisClient | null = null;
  try {
    client = createRedisClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', clusterNodes: cluster.nodes.split(',') });
    const publisher = new TestPublisher(client);
    await publisher.publish(project);
    const key = await publisher.createKey(project.id, { permission: 'user', ratelimit_min: keyLimitPerMin });
    const opened = client;
    return {
      cluster,
      env: { REDIS_CLUSTER_NODES: cluster.nodes },
      key,
      stop: async () => {
        opened.disconnect();
        await cluster.stop();
      },
    };
  } catch (error) {
    client?.disconnect();
    await cluster.stop();
    throw error;
  }
}
