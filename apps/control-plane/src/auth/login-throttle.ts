import { Inject, Injectable } from '@nestjs/common';
import { sha256Hex } from '@flowgate/platform';
import { Redis } from 'ioredis';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';

/**
 * Failed-login counters in Redis (shared by every control-plane instance), one per account and
 * one per client address, each a fixed window that starts at the first failure. Once a counter
 * reaches its maximum, logins for that account or from that address answer 429 until the window ends.
 * These keys are the control plane's own (`fg:cp:`), not part of the gateway contract.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @Inject(Redis) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  private accountKey(email: string): string {
    return `fg:cp:login-failures:account:${sha256Hex(email)}`;
  }

  private addressKey(address: string): string {
    return `fg:cp:login-failures:address:${address}`;
  }

  /** Throws 429 `too_many_attempts` with Retry-After while either counter is at its limit. */
  async assertAllowed(email: string, address: string): Promise<void> {
    const { maxFailuresPerAccount, maxFailuresPerAddress } = this.config.loginThrottle;
    const checks: Array<[string, number]> = [
      [this.accountKey(email), maxFailuresPerAccount],
      [this.addressKey(address), maxFailuresPerAddress],
    ];
    const pipeline = this.redis.pipeline();
    for (const [key] of checks) pipeline.get(key).pttl(key);
    const results = (await pipeline.exec()) ?? [];
    let retryAfterMs = 0;
    checks.forEach(([, max], index) => {
      const count = Number(results[index * 2]?.[1] ?? 0);
      const ttl = Number(results[index * 2 + 1]?.[1] ?? -2);
      if (count >= max && ttl > 0) retryAfterMs = Math.max(retryAfterMs, ttl);
    });
    if (retryAfterMs > 0)
      throw new AppError('too_many_attempts', 'Too many failed login attempts; try again later', undefined, {
        'Retry-After': String(Math.ceil(retryAfterMs / 1000)),
      });
  }

  async recordFailure(email: string, address: string): Promise<void> {
    const window = this.config.loginThrottle.windowSeconds;
    const multi = this.redis.multi();
    for (const key of [this.accountKey(email), this.addressKey(address)]) multi.incr(key).expire(key, window, 'NX');
    await multi.exec();
  }

  async reset(email: string): Promise<void> {
    await this.redis.del(this.accountKey(email));
  }
}
