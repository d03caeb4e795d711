import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sha256Hex } from '@flowgate/platform';
import { Redis } from 'ioredis';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { LOGIN_ATTEMPT_LUA } from './login-attempt.script';

/** A reserved attempt, to be given back when the password was right. */
export interface LoginAttempt {
  id: string;
  email: string;
  address: string;
}

/**
 * Login attempts in Redis (shared by every control-plane instance), one sliding window per
 * account and one per client address. An attempt is counted *before* the password is checked,
 * so concurrent guesses cannot slip past the limit: at most `maxFailuresPerAccount` passwords
 * are ever checked for one account within any window-long interval. A successful login clears
 * the account's window and gives the address its attempt back, so only failures stay counted.
 * These keys are the control plane's own (`fg:cp:`), not part of the gateway contract.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @Inject(Redis) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  private accountKey(email: string): string {
    return `fg:cp:login-attempts:account:${sha256Hex(email)}`;
  }

  private addressKey(address: string): string {
    return `fg:cp:login-attempts:address:${address}`;
  }

  /** Counts the attempt, or throws 429 `too_many_attempts` with Retry-After when either window is full. */
  async reserve(email: string, address: string): Promise<LoginAttempt> {
    const { maxFailuresPerAccount, maxFailuresPerAddress, windowSeconds } = this.config.loginThrottle;
    const id = randomUUID();
    const slots: Array<[string, number]> = [
      [this.accountKey(email), maxFailuresPerAccount],
      [this.addressKey(address), maxFailuresPerAddress],
    ];
    const waits = await Promise.all(
      slots.map(([key, max]) => this.redis.eval(LOGIN_ATTEMPT_LUA, 1, key, windowSeconds * 1000, max, id).then(Number)),
    ).catch(() => {
      // Without the count no password is checked: a guess must never go uncounted.
      throw new AppError('unavailable', 'Logins cannot be checked right now; try again shortly', undefined, { 'Retry-After': '1' });
    });
    const retryAfterMs = Math.max(...waits);
    if (retryAfterMs > 0) {
      // The other window may have counted this attempt; it was never made. One command per key:
      // on a Redis Cluster the two windows live in different slots (no shared pipeline).
      await Promise.all(slots.map(([key]) => this.redis.zrem(key, id)));
      throw new AppError('too_many_attempts', 'Too many failed login attempts; try again later', undefined, {
        'Retry-After': String(Math.ceil(retryAfterMs / 1000)),
      });
    }
    return { id, email, address };
  }

  /** The password was right: the account starts afresh, and the address keeps only its failures. */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    await Promise.all([this.redis.del(this.accountKey(attempt.email)), this.redis.zrem(this.addressKey(attempt.address), attempt.id)]);
  }
}
