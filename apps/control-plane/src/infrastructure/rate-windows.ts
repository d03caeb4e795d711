import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { LOGIN_ATTEMPT_LUA } from '../auth/login-attempt.script';
import { AppError } from '../common/app-error';

/** One per-caller rate: at most `max` actions in any sliding `windowMs`. */
export interface RateWindow {
  /** Redis key of the window (the control plane's own `fg:cp:` space). */
  key: string;
  max: number;
  windowMs: number;
  /** What is limited, for the message: "At most 30 saves per minute". */
  what: string;
  /**
   * Without Redis the action cannot be counted: refused with 503 `unavailable` (the default), or
   * let through (`allow`) where refusing would lock everyone out for no gain (sign-up).
   */
  whenUncounted?: 'refuse' | 'allow';
}

/**
 * Sliding-window rates shared by every control plane through Redis (test runs, sign-ups,
 * Save/Deploy/Import): the login throttle's script, one key per call, so it runs on a Redis
 * Cluster too. An action is counted before it runs, so concurrent calls cannot slip past.
 */
@Injectable()
export class RateWindows {
  constructor(@Inject(Redis) private readonly redis: Redis) {}

  /** Counts one action, or throws 429 `rate_limited` with Retry-After (whole seconds until a slot frees). */
  async take(rate: RateWindow): Promise<void> {
    let waitMs: number;
    try {
      waitMs = Number(await this.redis.eval(LOGIN_ATTEMPT_LUA, 1, rate.key, rate.windowMs, rate.max, randomUUID()));
    } catch {
      if (rate.whenUncounted === 'allow') return;
      throw new AppError('unavailable', 'This cannot be counted right now; try again shortly', undefined, { 'Retry-After': '1' });
    }
    if (waitMs <= 0) return;
    const seconds = Math.ceil(waitMs / 1000);
    throw new AppError('rate_limited', `${rate.what}; try again in ${seconds} s`, undefined, { 'Retry-After': String(seconds) });
  }
}
