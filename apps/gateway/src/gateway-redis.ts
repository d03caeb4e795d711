import { createRedisClient, isCluster, type Logger, type RedisClient, type RedisTarget } from '@flowgate/platform';
import type { RedisOptions } from 'ioredis';
import type { KeyScriptRunner } from './auth/api-key-verifier';
import { ClusterKeyChecks, KEY_CHECK_COMMAND } from './auth/cluster-key-checks';
import { KeyCheckConnection } from './auth/key-check-connection';
import { KEY_CHECK_LUA } from './auth/key-check.script';
import type { GatewayConfig } from './config';

/** A key check Redis has not answered by then is refused (503) and, on a single Redis, its connection replaced. */
const KEY_CHECK_TIMEOUT_MS = 2000;
/**
 * On a cluster a call to a slot whose master just died waits while ioredis re-reads the slot
 * map (a quick failover then answers it); 1.3 s leaves room for the rest of the request, so the
 * 503 is out within 2 s (the drill measured up to ~280 ms of HTTP, queueing and watchdog
 * granularity on a loaded 2-core machine).
 */
const CLUSTER_KEY_CHECK_TIMEOUT_MS = 1300;

/** The gateway's Redis clients: commands, the `fg:changes` subscriber, and the key checks. */
export interface GatewayRedis {
  commands: RedisClient;
  /** A connection of its own: a subscribed connection can run nothing else. */
  subscriber: RedisClient;
  keyChecks: KeyScriptRunner;
  target: RedisTarget;
  connect(): Promise<void>;
  close(): Promise<void>;
}

function nodeOptions(role: 'commands' | 'changes'): RedisOptions {
  return {
    lazyConnect: true,
    connectionName: `flowgate-gateway-${role}`,
    retryStrategy: (times) => Math.min(times * 100, 1000),
    ...(role === 'commands'
      ? {
          // Fail fast while Redis is away: keyed requests answer 503 instead of waiting.
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          autoResendUnfulfilledCommands: false,
          commandTimeout: KEY_CHECK_TIMEOUT_MS,
        }
      : { maxRetriesPerRequest: null }),
  };
}

/**
 * Single Redis (REDIS_URL): ioredis for commands and changes, and the hand-written pipelined
 * connection for key checks (about a third less gateway CPU per keyed request, see
 * docs/decisions.md). Redis Cluster (REDIS_CLUSTER_NODES): ioredis Cluster clients with
 * auto-pipelining for all three; the key checks share the command client.
 */
export function createGatewayRedis(config: GatewayConfig, logger: Logger): GatewayRedis {
  const target: RedisTarget = { url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES };
  // Auto-pipelining groups calls by their first argument, which for a batch of key checks is
  // its key count, not a key: the key script is sent on its own (it is one call per project and
  // loop turn already, see api-key-verifier.ts).
  const commands = createRedisClient(target, {
    node: nodeOptions('commands'),
    cluster: { lazyConnect: true, autoPipeliningIgnoredCommands: [KEY_CHECK_COMMAND] },
  });
  const subscriber = createRedisClient(target, { node: nodeOptions('changes'), cluster: { lazyConnect: true } });
  // Errors are reported by the components that see them; ioredis would print them otherwise.
  commands.on('error', (error) => logger.debug({ err: error }, 'redis connection error'));
  subscriber.on('error', (error) => logger.debug({ err: error }, 'redis subscriber connection error'));

  let keyConnection: KeyCheckConnection | null = null;
  let clusterKeyChecks: ClusterKeyChecks | null = null;
  let keyChecks: KeyScriptRunner;
  if (isCluster(commands)) keyChecks = clusterKeyChecks = new ClusterKeyChecks(commands, KEY_CHECK_LUA, CLUSTER_KEY_CHECK_TIMEOUT_MS);
  else {
    // Fails fast like `commands` (keyed requests answer 503 while Redis is away), one write per loop turn.
    keyChecks = keyConnection = new KeyCheckConnection({
      url: config.REDIS_URL,
      lua: KEY_CHECK_LUA,
      timeoutMs: KEY_CHECK_TIMEOUT_MS,
      name: 'flowgate-gateway-keys',
      onError: (error) => logger.debug({ err: error }, 'redis key-check connection error'),
    });
  }

  return {
    commands,
    subscriber,
    keyChecks,
    target,
    connect: async () => {
      await Promise.all([commands.connect(), subscriber.connect(), keyConnection?.connect()]);
    },
    close: async () => {
      keyConnection?.close();
      clusterKeyChecks?.close();
      for (const client of [subscriber, commands]) {
        await client.quit().catch(() => client.disconnect());
      }
    },
  };
}
