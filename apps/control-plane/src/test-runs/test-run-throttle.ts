import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { LOGIN_ATTEMPT_LUA } from '../auth/login-attempt.script';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';

const WINDOW_MS = 60_000;

/**
 * Test runs per account in any sliding minute (TEST_RUNS_PER_MINUTE), shared by every control
 * plane through Redis: a run executes flows with real side effects (HTTP requests, model calls),
 * so one account cannot turn the Workshop into a load generator. One key per call (the login
 * throttle's sliding-window script), so it works on a Redis Cluster too.
 */
@Injectable()
export class TestRunThrottle {
  constructor(
    @Inject(Redis) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  /** Counts the run, or throws 429 `rate_limited` with Retry-After. */
  async reserve(accountId: string): Promise<void> {
    const max = this.config.testRunsPerMinute;
    const waitMs = Number(await this.redis.eval(LOGIN_ATTEMPT_LUA, 1, `fg:cp:test-runs:${accountId}`, WINDOW_MS, max, randomUUID()));
    if (waitMs > 0)
      throw new AppError('rate_limited', `At most ${max} test runs per minute; try again in ${Math.ceil(waitMs / 1000)} s`, undefined, {
        'Retry-After': String(Math.ceil(waitMs / 1000)),
      });
  }
}
