import { performance } from 'node:perf_hooks';

/** Tenants known before idle ones are swept out. */
const SWEEP_FROM = 64;
/** Below this a tenant's cost counts as forgotten. */
const FORGOTTEN = 0.01;

interface Entry {
  cost: number;
  at: number;
}

/**
 * What each tenant consumed of a shared resource (ms of a connection, a thread, the event loop),
 * halved every `halfLifeMs`: a tenant is judged by its recent use, and an old burst is forgotten.
 * The fair shares (fair-shares.ts) and the gateway's loop scheduler give their next turn to the
 * tenant whose cost is the least.
 */
export class CostLedger {
  private readonly entries = new Map<string, Entry>();
  private sweepAt = SWEEP_FROM;

  constructor(
    private readonly halfLifeMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  charge(tenantId: string, cost: number): void {
    const now = this.now();
    const entry = this.entries.get(tenantId);
    if (entry !== undefined) {
      entry.cost = this.decayed(entry, now) + cost;
      entry.at = now;
      return;
    }
    if (this.entries.size >= this.sweepAt) this.sweep(now);
    this.entries.set(tenantId, { cost, at: now });
  }

  consumed(tenantId: string): number {
    const entry = this.entries.get(tenantId);
    return entry === undefined ? 0 : this.decayed(entry, this.now());
  }

  private decayed(entry: Entry, now: number): number {
    return entry.cost * 2 ** (-(now - entry.at) / this.halfLifeMs);
  }

  /** Drops the tenants whose cost has faded, so that the map holds the tenants of recent use only. */
  private sweep(now: number): void {
    for (const [tenantId, entry] of this.entries) if (this.decayed(entry, now) < FORGOTTEN) this.entries.delete(tenantId);
    this.sweepAt = Math.max(SWEEP_FROM, this.entries.size * 2);
  }
}
