import { apiKeyRecordKey } from '@flowgate/contracts';
import { createLogger, sha256Hex, type RedisClient } from '@flowgate/platform';
import { startRedisBackend, type RedisBackend } from '@flowgate/testing';
import type { Cluster } from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
import type { GatewayConfig } from '../config';
import { createGatewayRedis, type GatewayRedis } from '../gateway-redis';
import { ApiKeyVerifier } from './api-key-verifier';

const calculateSlot = require('cluster-key-slot') as (key: string) => number;

/**
 * The key checks on a Redis Cluster as the gateway wires them (gateway-redis.ts): each batch
 * (one project, one loop turn) must reach the master of its project's slot, whatever other
 * projects are checked in the same turn.
 */
describe('key checks on a Redis Cluster (real local cluster)', () => {
  let backend: RedisBackend;
  let admin: RedisClient;
  let redis: GatewayRedis;

  beforeAll(async () => {
    backend = await startRedisBackend('Redis Cluster');
    admin = backend.client();
    const config = { REDIS_URL: backend.target.url, REDIS_CLUSTER_NODES: backend.target.clusterNodes } as unknown as GatewayConfig;
    redis = createGatewayRedis(config, createLogger('test', 'silent'));
    await redis.connect();
  }, 120_000);

  afterAll(async () => {
    await redis?.close();
    admin?.disconnect();
    await backend?.stop();
  });

  /** Project ids whose hash tags fall on three different masters. */
  async function projectsOnEveryMaster(): Promise<string[]> {
    const masterOf = new Map<number, string>();
    for (const [start, end, master] of await (admin as Cluster).cluster('SLOTS')) {
      for (let slot = start; slot <= end; slot++) masterOf.set(slot, `${master[0]}:${master[1]}`);
    }
    const byMaster = new Map<string, string>();
    while (byMaster.size < 3) {
      const id = randomUUID();
      const master = masterOf.get(calculateSlot(`{${id}}`))!;
      if (!byMaster.has(master)) byMaster.set(master, id);
    }
    return [...byMaster.values()];
  }

  it('checks the keys of projects on three masters in the same loop turn, each against its own window', async () => {
    const projects = await projectsOnEveryMaster();
    const keys = await Promise.all(
      projects.map(async (projectId, index) => {
        const key = `test-key-${randomBytes(12).toString('hex')}`;
        await admin.hset(apiKeyRecordKey(projectId, sha256Hex(key)), { project_id: projectId, id: `key-${index}`, permission: 'user', ratelimit_min: '2' });
        return { projectId, key, id: `key-${index}` };
      }),
    );
    const verifier = new ApiKeyVerifier(redis.keyChecks);
    // Synchronously, so every check is made in the same turn: one batch per project, three slots.
    const checks = await Promise.all(keys.flatMap(({ projectId, key }) => [1, 2, 3].map(() => verifier.check(key, projectId, 'user'))));
    const outcomes = (index: number) => checks.slice(index * 3, index * 3 + 3).map((check) => check.outcome);
    for (const [index, { id }] of keys.entries()) {
      expect(outcomes(index)).toEqual(['accepted', 'accepted', 'rate_limited']);
      expect(checks[index * 3]).toMatchObject({ keyId: id, limit: 2, remaining: 1 });
    }
  }, 60_000);
});
