import type { FlowPorts } from '../ports';
import type { FlowRequest, FlowResult } from './flow-io';
import { Interrupt } from './interrupt';

/** The state of one execution: variable slots, the request, the outcome. */
export class FlowRun {
  /** Query parameters first, then variables; the slot table is fixed by `prepareFlow`. */
  readonly vars: unknown[];
  /** Set by Respond / Return Error; null while the flow runs. */
  result: FlowResult | null = null;
  private time: Date | null = null;
  private interrupt: Interrupt | null = null;

  constructor(
    readonly request: FlowRequest,
    readonly ports: FlowPorts,
    slotCount: number,
    /** Epoch milliseconds, or Infinity. */
    readonly deadlineAt: number,
    private readonly externalSignal: AbortSignal | undefined,
  ) {
    this.vars = new Array<unknown>(slotCount).fill(null);
  }

  /** One clock reading per run, so `{current_time}` and `{current_date}` agree. */
  now(): Date {
    if (this.time === null) this.time = this.ports.now ? this.ports.now() : new Date();
    return this.time;
  }

  uuid(): string {
    return this.ports.uuid ? this.ports.uuid() : globalThis.crypto.randomUUID();
  }

  /** Fires at the deadline or on cancellation; pass it to every port call. */
  get signal(): AbortSignal {
    return this.interruptor().signal;
  }

  interruptor(): Interrupt {
    if (this.interrupt === null) this.interrupt = new Interrupt(this.deadlineAt, this.externalSignal);
    return this.interrupt;
  }

  dispose(): void {
    this.interrupt?.dispose();
  }
}
