/**
 * Lets a warning through at most once per `intervalMs`, for warnings that would otherwise repeat
 * on every request (Redis down). Not a rate limit of requests: that is the per-key limit in Redis.
 */
export class WarningLimiter {
  private last = 0;

  constructor(private readonly intervalMs: number) {}

  due(now = Date.now()): boolean {
    if (now - this.last < this.intervalMs) return false;
    this.last = now;
    return true;
  }
}
