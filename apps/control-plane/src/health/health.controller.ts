import { Controller, Get, Header, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PrismaClient } from '@flowgate/db';
import type { Response } from 'express';
import { Redis } from 'ioredis';
import { MetricsService } from './metrics.service';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref()),
  ]);
}

/** Liveness, readiness (PostgreSQL and Redis answer) and Prometheus metrics. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(Redis) private readonly redis: Redis,
    private readonly metrics: MetricsService,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response): Promise<{ status: string; checks: Record<string, string> }> {
    const [postgres, redis] = await Promise.all([
      withTimeout(this.prisma.$queryRaw`SELECT 1`).then(
        () => 'ok',
        () => 'unreachable',
      ),
      withTimeout(this.redis.ping()).then(
        () => 'ok',
        () => 'unreachable',
      ),
    ]);
    const ready = postgres === 'ok' && redis === 'ok';
    res.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not_ready', checks: { postgres, redis } };
  }

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metricsText(@Res() res: Response): Promise<void> {
    res.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
