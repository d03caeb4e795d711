import { type DynamicModule, Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaClient, createPrismaClient } from '@flowgate/db';
import { createRedisClient, type RedisClient, SecretBox } from '@flowgate/platform';
import { Redis } from 'ioredis';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { Clock } from './clock';
import { DataDatabase } from './data-database';
import { RateWindows } from './rate-windows';

/** Closes the clients after the HTTP server stopped taking requests. */
@Injectable()
class ClientsShutdown implements OnApplicationShutdown {
  constructor(
    private readonly prisma: PrismaClient,
    @Inject(Redis) private readonly redis: RedisClient,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // QUIT needs a live connection; a client still reconnecting is simply dropped.
    const closeRedis = this.redis.status === 'ready' ? this.redis.quit() : Promise.resolve(this.redis.disconnect());
    await Promise.allSettled([this.prisma.$disconnect(), closeRedis]);
  }
}

/** Configuration and the shared clients (PostgreSQL, Redis, secret box, clock, rate windows), injected by type. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: ControlPlaneConfig): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: PrismaClient, useFactory: () => createPrismaClient(config.databaseUrl) },
        {
          provide: Redis,
          // Fail a command after two reconnect attempts instead of queueing it forever: a change
          // that cannot be published is refused (503) rather than left hanging. The token is the
          // Redis class; in cluster mode (REDIS_CLUSTER_NODES) the value is an ioredis Cluster.
          useFactory: () =>
            createRedisClient(
              { url: config.redisUrl, clusterNodes: config.redisClusterNodes },
              { node: { maxRetriesPerRequest: 2, connectionName: 'flowgate-control-plane' } },
            ),
        },
        { provide: SecretBox, useFactory: () => new SecretBox(config.encryptionKey, [config.previousEncryptionKey]) },
        Clock,
        RateWindows,
        DataDatabase,
        ClientsShutdown,
      ],
      exports: [CONFIG, PrismaClient, Redis, SecretBox, Clock, RateWindows, DataDatabase],
    };
  }
}
