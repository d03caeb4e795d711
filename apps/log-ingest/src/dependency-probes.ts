import { withTimeout } from './with-timeout';

/** One dependency's check: resolves when it answers, rejects (or never settles) when it does not. */
export type Probe = () => Promise<unknown>;

export interface DependencyState {
  ready: boolean;
  checks: Record<string, 'up' | 'down'>;
}

/**
 * Asks each dependency itself whether it answers, for `/readyz`: the consumer's own view lags
 * (kafkajs retries a lost broker for about a minute before it reports a crash, and a database
 * that went away while idle is noticed only by the next write). A probe that has not answered
 * within `timeoutMs` counts as down. Results are shared for `cacheMs`, and concurrent callers
 * share one round of probes, so frequent scrapes cost the dependencies nothing more.
 */
export class DependencyProbes {
  private last: { at: number; state: DependencyState } | null = null;
  private inFlight: Promise<DependencyState> | null = null;

  constructor(
    private readonly probes: Record<string, Probe>,
    private readonly options: { timeoutMs: number; cacheMs: number; now?: () => number },
  ) {}

  check(): Promise<DependencyState> {
    const now = this.options.now?.() ?? Date.now();
    if (this.last !== null && now - this.last.at < this.options.cacheMs) return Promise.resolve(this.last.state);
    this.inFlight ??= this.probeAll().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async probeAll(): Promise<DependencyState> {
    const names = Object.keys(this.probes);
    const results = await Promise.all(names.map((name) => answersWithin(this.probes[name]!, this.options.timeoutMs)));
    const checks: DependencyState['checks'] = {};
    names.forEach((name, index) => (checks[name] = results[index] ? 'up' : 'down'));
    const state = { ready: results.every(Boolean), checks };
    this.last = { at: this.options.now?.() ?? Date.now(), state };
    return state;
  }
}

function answersWithin(probe: Probe, ms: number): Promise<boolean> {
  return withTimeout(Promise.resolve().then(probe), ms).then(
    () => true,
    () => false,
  );
}
