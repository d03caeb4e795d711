import { performance } from 'node:perf_hooks';
import { CostLedger } from './cost-ledger';

export interface FairSharesOptions {
  /** Units shared (connections, threads). */
  capacity: number;
  /** Units one tenant may hold at once (at most `capacity`). */
  perTenant: number;
  /** What a tenant consumed is halved every this many ms: an old burst is forgotten, a steady one is not. */
  halfLifeMs?: number;
  now?: () => number;
}

/** A unit held by a tenant; `release` gives it back and charges the time it was held. */
export interface Lease {
  release(): void;
}

/** Refused when a tenant's waiting line is full. */
export class ShareQueueFull extends Error {
  override name = 'ShareQueueFull';
}

interface Waiter {
  grant(): void;
}

/** A tenant holding or waiting for units. */
interface Tenant {
  /** Start times of the units it holds now: what they cost so far counts before they are released. */
  holding: Set<{ start: number }>;
  waiting: Waiter[];
  /** When it was last granted a unit (a count of grants): ties go to the one served longest ago. */
  servedAt: number;
}

const DEFAULT_HALF_LIFE_MS = 2000;

/**
 * A pool of units (connections, threads) shared between tenants by what each consumed, not by
 * turns: a tenant holds at most `perTenant` units, and a unit that comes free goes to the waiting
 * tenant that consumed the least — the time its units were held (the ones it holds now
 * included), halved every `halfLifeMs` (cost-ledger.ts) — ties to the tenant served longest ago.
 * This is fair queueing by measured cost (the guarantee of deficit round robin): a tenant whose
 * units are held ten times as long gets a tenth as many turns, so a cheap request of a quiet
 * tenant waits for one unit to come free at most, never behind a noisy tenant's backlog.
 */
export class FairShares {
  private readonly tenants = new Map<string, Tenant>();
  private readonly ledger: CostLedger;
  private held = 0;
  private grants = 0;
  private readonly now: () => number;

  constructor(private readonly options: FairSharesOptions) {
    this.now = options.now ?? (() => performance.now());
    this.ledger = new CostLedger(options.halfLifeMs ?? DEFAULT_HALF_LIFE_MS, this.now);
  }

  /** Units held now, by every tenant. */
  get inUse(): number {
    return this.held;
  }

  /** Requests waiting for a unit, of one tenant. */
  waitingOf(tenantId: string): number {
    return this.tenants.get(tenantId)?.waiting.length ?? 0;
  }

  /** A unit now if one is free for the tenant (and none of its requests waits), else null. */
  tryAcquire(tenantId: string): Lease | null {
    const tenant = this.tenants.get(tenantId);
    if (tenant !== undefined && tenant.waiting.length > 0) return null;
    if (this.held >= this.options.capacity || (tenant?.holding.size ?? 0) >= this.options.perTenant) return null;
    return this.lease(tenantId, tenant ?? this.tenant(tenantId));
  }

  /**
   * Resolves with a unit once it is the tenant's turn. A signal that fires takes the request out
   * of the line (rejecting with its reason); `maxWaiting` refuses a request beyond that many of
   * the tenant's already waiting (`ShareQueueFull`).
   */
  acquire(tenantId: string, signal?: AbortSignal, maxWaiting = Infinity): Promise<Lease> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.tryAcquire(tenantId);
    if (now !== null) return Promise.resolve(now);
    const tenant = this.tenant(tenantId);
    if (tenant.waiting.length >= maxWaiting) return Promise.reject(new ShareQueueFull(`${maxWaiting} requests of this tenant are already waiting`));
    return new Promise<Lease>((resolve, reject) => {
      const onAbort = (): void => {
        tenant.waiting.splice(tenant.waiting.indexOf(waiter), 1);
        this.forget(tenantId, tenant);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.lease(tenantId, tenant));
        },
      };
      tenant.waiting.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** What the tenant consumed (decayed), its units held now included. */
  consumed(tenantId: string): number {
    const tenant = this.tenants.get(tenantId);
    return tenant === undefined ? this.ledger.consumed(tenantId) : this.cost(tenantId, tenant, this.now());
  }

  private lease(tenantId: string, tenant: Tenant): Lease {
    this.held++;
    const unit = { start: this.now() };
    tenant.holding.add(unit);
    tenant.servedAt = ++this.grants;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        tenant.holding.delete(unit);
        this.ledger.charge(tenantId, this.now() - unit.start);
        this.held--;
        this.forget(tenantId, tenant);
        this.grantNext();
      },
    };
  }

  /** Hands free units to the waiting tenants that consumed the least. */
  private grantNext(): void {
    while (this.held < this.options.capacity) {
      const now = this.now();
      let chosen: Tenant | null = null;
      let least = Infinity;
      for (const [tenantId, tenant] of this.tenants) {
        if (tenant.waiting.length === 0 || tenant.holding.size >= this.options.perTenant) continue;
        const cost = this.cost(tenantId, tenant, now);
        if (cost < least || (cost === least && tenant.servedAt < chosen!.servedAt)) [chosen, least] = [tenant, cost];
      }
      if (chosen === null) return;
      chosen.waiting.shift()!.grant();
    }
  }

  private cost(tenantId: string, tenant: Tenant, now: number): number {
    let holding = 0;
    for (const unit of tenant.holding) holding += now - unit.start;
    return this.ledger.consumed(tenantId) + holding;
  }

  private tenant(tenantId: string): Tenant {
    let tenant = this.tenants.get(tenantId);
    // A tenant that (re)appears goes behind the tenants waiting longer, as if served just before the last grant.
    if (tenant === undefined) this.tenants.set(tenantId, (tenant = { holding: new Set(), waiting: [], servedAt: this.grants - 0.5 }));
    return tenant;
  }

  /** A tenant that holds and waits for nothing leaves the map (the ledger keeps its cost). */
  private forget(tenantId: string, tenant: Tenant): void {
    if (tenant.holding.size === 0 && tenant.waiting.length === 0) this.tenants.delete(tenantId);
  }
}
