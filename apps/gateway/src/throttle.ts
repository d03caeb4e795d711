/** True at most once per `intervalMs`: for warnings that would otherwise repeat on every request. */
export class Throttle {
  private last = 0;

  constructor(private readonly intervalMs: number) {}

  ready(now = Date.now()): boolean {
    if (now - this.last < this.intervalMs) return false;
    this.last = now;
    return true;
  }
}
