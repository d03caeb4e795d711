import type { ConsoleLine, FlowPorts } from '../ports';
import type { FlowScheduler } from './fair-scheduler';
import type { FlowLimits } from './flow-limits';
import type { FlowRequest, FlowResult } from './flow-io';
import type { CaughtError, FlowTracer, SkipReason } from './flow-tracer';
import type { Interrupt } from './interrupt';
import { RunBudget, type RunBounds } from './run-budget';
import { BlockFailure, ValueTooLarge } from './run-errors';
import { formatCount, valueSize } from './value-size';

export { FIRST_SLICE_MS, type RunBounds } from './run-budget';

/**
 * The state of one execution as its blocks see it: variable slots, the request, the outcome.
 * A loop iteration runs in a scope of its own (`iterationScope`): a copy of the slots it can
 * change freely, sharing the run's budget (time, deadline, memory, iterations).
 */
export class FlowRun {
  /** Query parameters first, then variables; the slot table is fixed by `prepareFlow`. */
  readonly vars: unknown[];
  /** Set by Respond / Return Error; null while the flow runs. */
  result: FlowResult | null = null;
  readonly limits: FlowLimits;
  readonly scheduler: FlowScheduler;
  /** Epoch milliseconds, or Infinity. */
  readonly deadlineAt: number;
  /** Told what every block did (test runs), already marked with the iteration inside a loop; null on live requests. */
  readonly tracer: FlowTracer | null;
  /** Set by a block that did nothing (read and cleared by a tracer). */
  skipped: SkipReason | null = null;
  /** What a skipped block would have done (a dry-run email's message), for a tracer; else undefined. */
  shown: unknown = undefined;
  /** Set by a block that failed and let the flow go on, its result saying why (read and cleared by a tracer). */
  failure: CaughtError | null = null;
  /** Bytes of the values this scope kept, per slot (null until the first). */
  private slotBytes: number[] | null = null;
  /** Fires when the iteration this scope runs is cancelled (another one answered); null outside loops. */
  private readonly cancel: AbortSignal | null;
  private combinedSignal: AbortSignal | null = null;
  /** How many Call Function blocks led to this scope (0 for an endpoint's own run and its iterations). */
  readonly depth: number;

  constructor(
    readonly request: FlowRequest,
    readonly ports: FlowPorts,
    slotCount: number,
    bounds: RunBounds | RunBudget,
    scope?: { vars: unknown[]; cancel: AbortSignal | null; tracer: FlowTracer | null; depth: number },
  ) {
    this.budget = bounds instanceof RunBudget ? bounds : new RunBudget(bounds);
    this.vars = scope?.vars ?? new Array<unknown>(slotCount).fill(null);
    this.limits = this.budget.limits;
    this.scheduler = this.budget.scheduler;
    this.deadlineAt = this.budget.deadlineAt;
    this.tracer = scope ? scope.tracer : this.budget.tracer;
    this.cancel = scope?.cancel ?? null;
    this.depth = scope?.depth ?? 0;
  }

  readonly budget: RunBudget;

  /** A scope for one loop iteration: it reads every value set so far; what it sets stays in it. */
  iterationScope(cancel: AbortSignal, tracer: FlowTracer | null): FlowRun {
    return new FlowRun(this.request, this.ports, this.vars.length, this.budget, { vars: this.vars.slice(), cancel, tracer, depth: this.depth });
  }

  /**
   * A scope for a function this run calls (Call Function): slots of its own, the same request,
   * ports and budget (time, deadline, memory, iterations), cancelled with this scope, one level deeper.
   */
  callScope(slotCount: number, tracer: FlowTracer | null): FlowRun {
    const vars = new Array<unknown>(slotCount).fill(null);
    return new FlowRun(this.request, this.ports, slotCount, this.budget, { vars, cancel: this.cancel, tracer, depth: this.depth + 1 });
  }

  /** True once the iteration this scope runs was cancelled. */
  get cancelled(): boolean {
    return this.cancel !== null && this.cancel.aborted;
  }

  /** Time on the event loop the whole run (callers, functions and iterations) used in the slices that ended. */
  get cpuUsedMs(): number {
    return this.budget.cpuUsedMs;
  }

  /** The running block's console output (Run Code): shown in a test run's trace, dropped otherwise. */
  log(lines: readonly ConsoleLine[]): void {
    if (lines.length > 0) this.tracer?.blockLogged?.(lines);
  }

  /** Marks the running block as skipped: it had no port to call (or a test run only shows the email). */
  skip(reason: SkipReason, shown?: unknown): void {
    this.skipped = reason;
    this.shown = shown;
  }

  /**
   * Marks the running block as failed though the flow goes on (Send External Request without an
   * error handle: `{NAME.error}` holds the reason), so a test run shows it failed.
   */
  failedAndWentOn(failure: CaughtError): void {
    if (this.tracer !== null) this.failure = failure;
  }

  /** One clock reading per run, so `{current_time}` and `{current_date}` agree. */
  now(): Date {
    if (this.budget.time === null) this.budget.time = this.ports.now ? this.ports.now() : new Date();
    return this.budget.time;
  }

  /**
   * `{secrets.NAME}`: the value the caller gave the run. A name the project no longer has (a
   * secret deleted while a live flow reads it) fails the block; the message names the secret only.
   */
  secret(name: string): string {
    const value = this.ports.secrets?.get(name);
    if (value === undefined) throw new BlockFailure(`the secret ${name} does not exist (it was deleted); add it again in Settings → Secrets`);
    return value;
  }

  uuid(): string {
    return this.ports.uuid ? this.ports.uuid() : globalThis.crypto.randomUUID();
  }

  /** Fires at the deadline, on cancellation, or when this iteration is cancelled; pass it to every port call. */
  get signal(): AbortSignal {
    const run = this.budget.interruptor().signal;
    if (this.cancel === null) return run;
    return (this.combinedSignal ??= AbortSignal.any([run, this.cancel]));
  }

  interruptor(): Interrupt {
    return this.budget.interruptor();
  }

  /** Called after every block: whether to read the clock now (`sliceUsedUp`). */
  clockDue(): boolean {
    return this.budget.clockDue();
  }

  /** Counts work a block did without a size check (a regular expression: text × pattern). */
  countWork(units: number): void {
    this.budget.work += units;
  }

  /**
   * True once the slice is used up (the run should let others go first); throws
   * `RunInterrupted` when the deadline passed or the CPU budget ran out.
   */
  sliceUsedUp(): boolean {
    return this.budget.sliceUsedUp();
  }

  startSlice(sliceMs: number): void {
    this.budget.startSlice(sliceMs);
  }

  endSlice(): void {
    this.budget.endSlice();
  }

  /**
   * Throws `ValueTooLarge` when `size` characters are more than a value may hold. (A size
   * measured by `valueSize` stops counting past the limit, hence "at least".)
   */
  fit(size: number, what = 'result'): void {
    this.budget.work += size;
    if (size > this.limits.maxValueChars) {
      throw new ValueTooLarge(`the ${what} would be at least ${formatCount(size)} characters; the limit is ${formatCount(this.limits.maxValueChars)}`);
    }
  }

  /** `fit` for a value already made (text, list or object). */
  fitValue(value: unknown, what = 'result'): void {
    if (typeof value === 'string') this.fit(value.length, what);
    else if (value !== null && typeof value === 'object') this.fit(valueSize(value, this.limits.maxValueChars), what);
  }

  /**
   * Stores a block's value in its variable slot, once its memory fits the run's budget
   * (FLOW_MAX_RUN_BYTES) together with the values the run keeps already (in every scope); a
   * value replaced in its slot by the same scope no longer counts. Text counts 2 bytes per
   * character (V8 keeps text in 1 or 2 per character); a list or object 2 bytes per character
   * of its JSON, which stays below its real size in the heap for small values, so the budget
   * bounds what a run can pile up rather than measuring it exactly.
   */
  keep(slot: number, value: unknown): void {
    const sizes = (this.slotBytes ??= new Array<number>(this.vars.length).fill(0));
    const room = this.limits.maxRunBytes - this.budget.heldBytes + sizes[slot];
    const bytes = bytesOf(value, room);
    this.budget.hold(bytes - sizes[slot]);
    sizes[slot] = bytes;
    this.vars[slot] = value;
  }

  /** Ends an iteration's (or a called function's) scope: the values only it kept no longer count. */
  release(): void {
    if (this.slotBytes === null) return;
    let bytes = 0;
    for (const size of this.slotBytes) bytes += size;
    this.slotBytes = null;
    if (bytes !== 0) this.budget.hold(-bytes);
  }

  /** Ends the run: its values no longer count against its project, and its deadline timer stops. */
  dispose(): void {
    this.budget.dispose();
  }
}

/** Memory of a value as `FlowRun.keep` counts it; stops counting soon after `limit` (then "at least"). */
export function bytesOf(value: unknown, limit: number): number {
  if (typeof value === 'string') return 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  return 2 * valueSize(value, Math.ceil(limit / 2));
}
