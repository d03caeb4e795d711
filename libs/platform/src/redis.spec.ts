import { z } from 'zod';
import { loadConfig } from './config';
import { bullmqPrefix, redisClusterNodesVariable } from './redis';

const schema = z.object({ REDIS_CLUSTER_NODES: redisClusterNodesVariable });

describe('REDIS_CLUSTER_NODES', () => {
  it('is single-node mode when unset or empty', () => {
    expect(loadConfig(schema, {}).REDIS_CLUSTER_NODES).toBeNull();
    expect(loadConfig(schema, { REDIS_CLUSTER_NODES: ' ' }).REDIS_CLUSTER_NODES).toBeNull();
  });

  it('lists the seeds, trimmed', () => {
    expect(loadConfig(schema, { REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-2.internal:7001,' }).REDIS_CLUSTER_NODES).toEqual([
      '10.0.0.1:7000',
      'redis-2.internal:7001',
    ]);
  });

  it('refuses a seed without a port with one line naming the variable', () => {
    expect(() => loadConfig(schema, { REDIS_CLUSTER_NODES: '10.0.0.1:7000,redis-2' })).toThrow(
      'REDIS_CLUSTER_NODES: must be a comma-separated list of host:port seeds (e.g. 10.0.0.1:7000,10.0.0.2:7000)',
    );
  });
});

describe('bullmqPrefix', () => {
  it('keeps the prefix on a single Redis and makes it a hash tag on a cluster (one slot per queue)', () => {
    expect(bullmqPrefix('bull', { url: 'redis://x', clusterNodes: null })).toBe('bull');
    expect(bullmqPrefix('bull', { url: 'redis://x', clusterNodes: ['x:7000'] })).toBe('{bull}');
  });
});
