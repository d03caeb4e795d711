import type { FlowScheduler } from './fair-scheduler';
import type { FlowLimits } from './flow-limits';
import type { MemoryAccount } from './flow-io';
import type { FlowTracer } from './flow-tracer';
import { Interrupt } from './interrupt';
import { IterationLimitReached, RunInterrupted, RunMemoryExceeded } from './run-errors';
import { formatCount } from './value-size';

/** How a run is bounded: its limits, and the queue it waits in when its slice is used up. */
export interface RunBounds {
  limits: FlowLimits;
  scheduler: FlowScheduler;
  /** Epoch milliseconds, or Infinity. */
  deadlineAt: number;
  signal: AbortSignal | undefined;
  memory: MemoryAccount | undefined;
  /** Told what every block does (test runs: Run Code's console too); a called function's blocks go to a nested tracer. */
  tracer?: FlowTracer | null;
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

/**
 * What one run uses in all, shared by the run, the scopes of its loop iterations (which run
 * at once with `concurrency`) and those of the functions it calls: time on the loop, the deadline, the memory of the values kept,
 * the iterations done. A loop is never a way around a limit because every scope counts here.
 */
export class RunBudget {
  readonly limits: FlowLimits;
  readonly scheduler: FlowScheduler;
  readonly deadlineAt: number;
  readonly tracer: FlowTracer | null;
  /** Time on the event loop used by the slices that ended. */
  cpuUsedMs = 0;
  /** Characters handled since the clock was last read (sizes checked, regex work). */
  work = 0;
  private blocksUntilClock = BLOCKS_PER_CLOCK_READING;
  private readonly deadlineTick: number;
  private sliceStart: number;
  private sliceMs = FIRST_SLICE_MS;
  /** False while the run waits (for a port or a slice): no time is being counted. */
  private sliceOpen = true;
  private interrupt: Interrupt | null = null;
  private readonly externalSignal: AbortSignal | undefined;
  /** Bytes of the kept values of every scope, as `FlowRun.keep` counts them. */
  heldBytes = 0;
  private readonly memory: MemoryAccount | undefined;
  /** Loop iterations started so far (FLOW_MAX_ITERATIONS). */
  private iterations = 0;
  time: Date | null = null;

  constructor(bounds: RunBounds) {
    this.limits = bounds.limits;
    this.scheduler = bounds.scheduler;
    this.deadlineAt = bounds.deadlineAt;
    this.externalSignal = bounds.signal;
    this.memory = bounds.memory;
    this.tracer = bounds.tracer ?? null;
    this.sliceStart = clock();
    this.deadlineTick = bounds.deadlineAt === Infinity ? Infinity : this.sliceStart + (bounds.deadlineAt - Date.now());
  }

  interruptor(): Interrupt {
    if (this.interrupt === null) this.interrupt = new Interrupt(this.deadlineAt, this.externalSignal);
    return this.interrupt;
  }

  clockDue(): boolean {
    return --this.blocksUntilClock <= 0 || this.work > WORK_PER_CLOCK_READING;
  }

  sliceUsedUp(): boolean {
    this.work = 0;
    this.blocksUntilClock = BLOCKS_PER_CLOCK_READING;
    const now = clock();
    if (now >= this.deadlineTick) throw new RunInterrupted('deadline');
    const used = now - this.sliceStart;
    if (this.cpuUsedMs + used >= this.limits.cpuBudgetMs) throw new RunInterrupted('cpu_budget');
    return used >= this.sliceMs;
  }

  get inSlice(): boolean {
    return this.sliceOpen;
  }

  startSlice(sliceMs: number): void {
    this.sliceStart = clock();
    this.sliceMs = sliceMs;
    this.sliceOpen = true;
  }

  /** Idempotent: iterations running at once may each stop to wait. */
  endSlice(): void {
    if (!this.sliceOpen) return;
    this.sliceOpen = false;
    const used = clock() - this.sliceStart;
    this.cpuUsedMs += used;
    // The fair scheduler charges the run's tenant with what the slice took.
    this.scheduler.sliceEnded(used);
    if (this.releaseTurn !== null) {
      const release = this.releaseTurn;
      this.releaseTurn = null;
      release();
    }
  }

  /**
   * Waits for the run's next slice (after other runs had theirs); the wait is not counted as
   * time used. Parts of one run (loop iterations) wait in line behind each other: one run asks
   * the scheduler for one turn at a time, however many iterations it has under way, so a loop
   * never takes more than its one share of the event loop.
   */
  async nextSlice(): Promise<void> {
    this.endSlice();
    const interruptor = this.interruptor();
    const previous = this.turnLine;
    let release!: () => void;
    this.turnLine = new Promise<void>((resolve) => (release = resolve));
    this.waitingForTurn++;
    try {
      await interruptor.race(previous);
      this.startSlice(await interruptor.race(this.scheduler.turn(interruptor.signal)));
      // The next in line asks for its turn once this slice ends.
      this.releaseTurn = release;
    } catch (error) {
      release();
      throw error;
    } finally {
      this.waitingForTurn--;
    }
  }

  /** Parts of the run (loop iterations) waiting for a slice now. */
  waitingForTurn = 0;
  private turnLine: Promise<void> = Promise.resolve();
  private releaseTurn: (() => void) | null = null;

  /** The run goes on as an answer arrives, like a new request: in a first slice (unless one is open). */
  resume(): void {
    if (!this.sliceOpen) this.startSlice(FIRST_SLICE_MS);
  }

  /** Counts one more iteration; throws past FLOW_MAX_ITERATIONS. */
  countIteration(): void {
    if (++this.iterations > this.limits.maxIterations) {
      throw new IterationLimitReached(`the run would do more than ${formatCount(this.limits.maxIterations)} loop iterations in all (FLOW_MAX_ITERATIONS)`);
    }
  }

  /** Changes the bytes held by `change` when the total stays within FLOW_MAX_RUN_BYTES. */
  hold(change: number): void {
    if (change > 0 && this.heldBytes + change > this.limits.maxRunBytes) {
      throw new RunMemoryExceeded(
        `the values this run keeps would take at least ${formatCount(this.heldBytes + change)} bytes; the limit (FLOW_MAX_RUN_BYTES) is ${formatCount(this.limits.maxRunBytes)}`,
      );
    }
    if (this.memory !== undefined && change !== 0 && !this.memory.add(change)) throw new RunInterrupted('memory');
    this.heldBytes += change;
  }

  dispose(): void {
    if (this.memory !== undefined && this.heldBytes !== 0) this.memory.add(-this.heldBytes);
    this.heldBytes = 0;
    this.interrupt?.dispose();
  }
}
