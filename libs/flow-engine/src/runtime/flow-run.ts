import type { FlowPorts } from '../ports';
import type { FlowScheduler } from './fair-scheduler';
import type { FlowLimits } from './flow-limits';
import type { FlowRequest, FlowResult, MemoryAccount } from './flow-io';
import type { SkipReason } from './flow-tracer';
import { Interrupt } from './interrupt';
import { BlockFailure, RunInterrupted, RunMemoryExceeded, ValueTooLarge } from './run-errors';
import { formatCount, valueSize } from './value-size';

/** How a run is bounded: its limits, and the queue it waits in when its slice is used up. */
export interface RunBounds {
  limits: FlowLimits;
  scheduler: FlowScheduler;
  /** Epoch milliseconds, or Infinity. */
  deadlineAt: number;
  signal: AbortSignal | undefined;
  memory: MemoryAccount | undefined;
}

/**
 * A request's first slice, run as it arrives: ordinary flows finish in tens of microseconds;
 * a longer one goes on in scheduled slices, so many arrivals in one turn of the loop cannot add up.
 */
export const FIRST_SLICE_MS = 1;

const clock = (): number => performance.now();

/**
 * The clock is read after every few blocks (a reading costs ~0.1 µs, as much as a simple
 * block), and sooner once the blocks since the last reading handled this much text: every
 * block is bounded by the limits, so a few unread ones stay far below a slice's overrun.
 */
const BLOCKS_PER_CLOCK_READING = 4;
const WORK_PER_CLOCK_READING = 64 * 1024;

/** The state of one execution: variable slots, the request, the outcome, the time it used. */
export class FlowRun {
  /** Query parameters first, then variables; the slot table is fixed by `prepareFlow`. */
  readonly vars: unknown[];
  /** Set by Respond / Return Error; null while the flow runs. */
  result: FlowResult | null = null;
  readonly limits: FlowLimits;
  readonly scheduler: FlowScheduler;
  /** Epoch milliseconds, or Infinity. */
  readonly deadlineAt: number;
  /** Time on the event loop used by the slices that ended. */
  cpuUsedMs = 0;
  /** Characters handled since the clock was last read (sizes checked, regex work). */
  private work = 0;
  private blocksUntilClock = BLOCKS_PER_CLOCK_READING;
  /** Set by a block that did nothing (read and cleared by a tracer). */
  skipped: SkipReason | null = null;
  /** What a skipped block would have done (a dry-run email's message), for a tracer; else undefined. */
  shown: unknown = undefined;
  private readonly deadlineTick: number;
  private sliceStart: number;
  private sliceMs = FIRST_SLICE_MS;
  private time: Date | null = null;
  private interrupt: Interrupt | null = null;
  private readonly externalSignal: AbortSignal | undefined;
  /** Bytes of the kept values, as `keep` counts them: in all, and per slot once a value is kept. */
  private heldBytes = 0;
  private slotBytes: number[] | null = null;
  private readonly memory: MemoryAccount | undefined;

  constructor(
    readonly request: FlowRequest,
    readonly ports: FlowPorts,
    slotCount: number,
    bounds: RunBounds,
  ) {
    this.vars = new Array<unknown>(slotCount).fill(null);
    this.limits = bounds.limits;
    this.scheduler = bounds.scheduler;
    this.deadlineAt = bounds.deadlineAt;
    this.externalSignal = bounds.signal;
    this.memory = bounds.memory;
    this.sliceStart = clock();
    this.deadlineTick = bounds.deadlineAt === Infinity ? Infinity : this.sliceStart + (bounds.deadlineAt - Date.now());
  }

  /** Marks the running block as skipped: it had no port to call (or a test run only shows the email). */
  skip(reason: SkipReason, shown?: unknown): void {
    this.skipped = reason;
    this.shown = shown;
  }

  /** One clock reading per run, so `{current_time}` and `{current_date}` agree. */
  now(): Date {
    if (this.time === null) this.time = this.ports.now ? this.ports.now() : new Date();
    return this.time;
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

  /** Fires at the deadline or on cancellation; pass it to every port call. */
  get signal(): AbortSignal {
    return this.interruptor().signal;
  }

  interruptor(): Interrupt {
    if (this.interrupt === null) this.interrupt = new Interrupt(this.deadlineAt, this.externalSignal);
    return this.interrupt;
  }

  /** Called after every block: whether to read the clock now (`sliceUsedUp`). */
  clockDue(): boolean {
    return --this.blocksUntilClock <= 0 || this.work > WORK_PER_CLOCK_READING;
  }

  /** Counts work a block did without a size check (a regular expression: text × pattern). */
  countWork(units: number): void {
    this.work += units;
  }

  /**
   * True once the slice is used up (the run should let others go first); throws
   * `RunInterrupted` when the deadline passed or the CPU budget ran out.
   */
  sliceUsedUp(): boolean {
    this.work = 0;
    this.blocksUntilClock = BLOCKS_PER_CLOCK_READING;
    const now = clock();
    if (now >= this.deadlineTick) throw new RunInterrupted('deadline');
    const used = now - this.sliceStart;
    if (this.cpuUsedMs + used >= this.limits.cpuBudgetMs) throw new RunInterrupted('cpu_budget');
    return used >= this.sliceMs;
  }

  startSlice(sliceMs: number): void {
    this.sliceStart = clock();
    this.sliceMs = sliceMs;
  }

  endSlice(): void {
    this.cpuUsedMs += clock() - this.sliceStart;
    this.scheduler.sliceEnded();
  }

  /**
   * Throws `ValueTooLarge` when `size` characters are more than a value may hold. (A size
   * measured by `valueSize` stops counting past the limit, hence "at least".)
   */
  fit(size: number, what = 'result'): void {
    this.work += size;
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
   * (FLOW_MAX_RUN_BYTES) together with the values the run keeps already; a value replaced in
   * its slot no longer counts. Text counts 2 bytes per character (V8 keeps text in 1 or 2 per
   * character); a list or object 2 bytes per character of its JSON, which stays below its real
   * size in the heap for small values, so the budget bounds what a run can pile up rather than
   * measuring it exactly.
   */
  keep(slot: number, value: unknown): void {
    const sizes = (this.slotBytes ??= new Array<number>(this.vars.length).fill(0));
    const room = this.limits.maxRunBytes - this.heldBytes + sizes[slot];
    const bytes = bytesOf(value, room);
    if (bytes > room) {
      const total = this.heldBytes - sizes[slot] + bytes;
      throw new RunMemoryExceeded(
        `the values this run keeps would take at least ${formatCount(total)} bytes; the limit (FLOW_MAX_RUN_BYTES) is ${formatCount(this.limits.maxRunBytes)}`,
      );
    }
    const change = bytes - sizes[slot];
    if (this.memory !== undefined && !this.memory.add(change)) throw new RunInterrupted('memory');
    sizes[slot] = bytes;
    this.heldBytes += change;
    this.vars[slot] = value;
  }

  /** Ends the run: its values no longer count against its project, and its deadline timer stops. */
  dispose(): void {
    if (this.memory !== undefined && this.heldBytes !== 0) this.memory.add(-this.heldBytes);
    this.heldBytes = 0;
    this.interrupt?.dispose();
  }
}

/** Memory of a value as `FlowRun.keep` counts it; stops counting soon after `limit` (then "at least"). */
function bytesOf(value: unknown, limit: number): number {
  if (typeof value === 'string') return 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  return 2 * valueSize(value, Math.ceil(limit / 2));
}
