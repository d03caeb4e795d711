import { call } from '@flowgate/testing';
import { setTimeout as sleep } from 'node:timers/promises';

export interface KeyedResult {
  /** `Date.now()` when sent. */
  at: number;
  ms: number;
  status: number;
  code: string | null;
}

/**
 * Steady keyed traffic through several gateways: one request per gateway every `everyMs`,
 * each waiting for its answer (a slow answer slows the sender, as a client would).
 */
export class KeyedLoad {
  readonly results: KeyedResult[] = [];
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly gatewayUrls: string[],
    private readonly host: string,
    private readonly path: string,
    /** Absent: public requests. */
    private readonly key: string | undefined,
    private readonly everyMs = 20,
  ) {}

  start(): void {
    this.running = true;
    this.loops = this.gatewayUrls.map((url) => this.loop(url));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  since(time: number): KeyedResult[] {
    return this.results.filter((result) => result.at >= time);
  }

  private async loop(url: string): Promise<void> {
    while (this.running) {
      const at = Date.now();
      try {
        const response = await call(url, this.host, this.path, { key: this.key });
        const code = (response.json as { code?: string } | undefined)?.code ?? null;
        this.results.push({ at, ms: Date.now() - at, status: response.status, code });
      } catch {
        this.results.push({ at, ms: Date.now() - at, status: 0, code: 'connection_error' });
      }
      await sleep(Math.max(0, this.everyMs - (Date.now() - at)));
    }
  }
}
