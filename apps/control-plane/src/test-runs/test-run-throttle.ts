import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { RateWindows } from '../infrastructure/rate-windows';

/**
 * Test runs per account in any sliding minute (TEST_RUNS_PER_MINUTE), shared by every control
 * plane through Redis: a run executes flows with real side effects (HTTP requests, model calls),
 * so one account cannot turn the Workshop into a load generator.
 */
@Injectable()
export class TestRunThrottle {
  constructor(
    private readonly rates: RateWindows,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  /** Counts the run, or throws 429 `rate_limited` with Retry-After. */
  reserve(accountId: string): Promise<void> {
    const max = this.config.testRunsPerMinute;
    return this.rates.take({ key: `fg:cp:test-runs:${accountId}`, max, windowMs: 60_000, what: `At most ${max} test runs per minute` });
  }
}
