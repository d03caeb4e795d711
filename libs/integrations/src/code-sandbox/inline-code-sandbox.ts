import type { CodeOutcome, CodeTask } from '@flowgate/flow-engine';
import { startWorkerBeside } from '@flowgate/platform';
import { performance } from 'node:perf_hooks';
import { isMainThread, MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { ANSWER_BYTES, ANSWERED, CONTROL_WORDS, REQUEST_BYTES, REQUESTED, type InlineRequest, type InlineStart, type InlineWorkerData } from './inline-code-protocol';
import { CodeSandbox } from './quickjs-sandbox';

/**
 * How much CPU time code may take before the caller goes on without it: as long as the flow
 * engine's first slice of a request. Code that needs longer is stopped and run again from the
 * start in the heavy-work pool, with its whole timeout; running it twice is safe, as the
 * sandbox reaches nothing outside it.
 */
export const INLINE_CODE_MS = 1;
/**
 * How long a gateway's event loop waits for the sandbox's thread: the budget and the hop there
 * and back (~40 µs). QuickJS checks the budget every few thousand instructions and never inside
 * a built-in, so the code itself may take far longer; the loop does not wait for it.
 */
const WAIT_MS = INLINE_CODE_MS + 0.5;
/** How long the loop spins before it sleeps while it waits (a sleeping thread takes ~0.1 ms to wake here). */
const SPIN_MS = 0.15;
/**
 * A run the loop stopped waiting for and that is still running after this is stuck in a
 * built-in: its thread is replaced (at most one new thread a second, whatever a project sends).
 */
const STUCK_MS = 1000;

/** Runs short code at once and answers, or says (null) that it needs the pool. */
export interface InlineCode {
  /** The outcome, or null when the code needs longer than INLINE_CODE_MS (or the sandbox is not loaded yet). */
  runNow(task: CodeTask): CodeOutcome | null;
  readonly isLoaded: boolean;
  /** True once the sandbox is loaded (it starts loading): a first run waits for it rather than for a pool thread to start and load its own. */
  loaded(): Promise<boolean>;
}

/**
 * Run Code's sandbox for code short enough to answer at once: most code (a sum, a reshaped
 * object) takes a fraction of a millisecond, and running it without a trip through the pool's
 * queue keeps Run Code near the speed of other blocks (bench/run-code.bench.ts). One per
 * process, shared by every project; loaded on first use, until when code runs in the pool.
 * On a process's main thread (a gateway's event loop) the code runs on a thread of its own
 * while the loop waits for at most `WAIT_MS` (`ThreadCodeSandbox`); on a worker thread, whose
 * owner bounds its time, on the thread itself (`DirectCodeSandbox`).
 */
export function createInlineCode(memoryMb: number): InlineCode {
  return isMainThread ? new ThreadCodeSandbox(memoryMb) : new DirectCodeSandbox(memoryMb);
}

/** Whether an outcome says only that the code needs more than the inline budget. */
const needsLonger = (outcome: CodeOutcome, budgetMs: number, task: CodeTask): boolean =>
  !outcome.ok && outcome.code === 'code_timeout' && budgetMs < task.timeoutMs;

/**
 * The sandbox on the calling thread: used where the caller is itself a worker thread. Its
 * budget is QuickJS's interrupt handler, which a built-in can outrun (`new Array(1e8).indexOf(1)`
 * takes seconds): never on an event loop that serves other projects.
 */
export class DirectCodeSandbox implements InlineCode {
  private sandbox: CodeSandbox | null = null;
  private loading: Promise<void> | null = null;

  constructor(private readonly memoryMb: number) {}

  runNow(task: CodeTask): CodeOutcome | null {
    const sandbox = this.ready();
    if (sandbox === null) return null;
    const budget = Math.min(INLINE_CODE_MS, task.timeoutMs);
    const outcome = sandbox.run(task, budget);
    if (sandbox.broken) this.sandbox = null;
    return needsLonger(outcome, budget, task) ? null : outcome;
  }

  get isLoaded(): boolean {
    return this.sandbox !== null;
  }

  async loaded(): Promise<boolean> {
    if (this.ready() === null) await this.loading;
    return this.sandbox !== null;
  }

  private ready(): CodeSandbox | null {
    if (this.sandbox === null && this.loading === null) {
      this.loading = CodeSandbox.load({ memoryMb: this.memoryMb }).then(
        (sandbox) => {
          this.sandbox = sandbox;
          this.loading = null;
        },
        () => {
          // Not loaded (short of memory?): code runs in the pool, and the next run tries again.
          this.loading = null;
        },
      );
    }
    return this.sandbox;
  }
}

interface SandboxThread {
  worker: Worker;
  /** The thread's one message: whether its sandbox loaded. */
  port: MessagePort;
  /** Shared with the thread: inline-code.worker.ts `REQUESTED`, `ANSWERED`, … */
  words: Int32Array;
  request: Buffer;
  answer: Buffer;
  ready: boolean;
  /** Resolves once the thread is ready (true) or failed to start (false). */
  started: Promise<boolean>;
  stuck: NodeJS.Timeout | null;
}

/** Largest task (its JSON) and answer handed over; larger ones go to the pool. */
const HANDOVER_BYTES = 256 * 1024;

/**
 * The sandbox on a thread of its own, waited for synchronously: the task's JSON is written to
 * shared memory, the thread (waiting in `Atomics.wait`) woken, and the loop spins, then sleeps,
 * until the answer is there or `WAIT_MS` passed. An answer in time comes back as if the code had
 * run on the loop; otherwise the loop goes on (null: the pool runs the code again) and the
 * thread is left to finish, or is replaced after `STUCK_MS`. Runs are never queued here: while
 * the thread is busy with a run the loop stopped waiting for, or starting, code goes to the pool.
 */
export class ThreadCodeSandbox implements InlineCode {
  private thread: SandboxThread | null = null;

  constructor(private readonly memoryMb: number) {}

  runNow(task: CodeTask): CodeOutcome | null {
    const thread = this.current();
    if (!thread.ready) return null;
    const { words } = thread;
    const last = Atomics.load(words, REQUESTED);
    if (Atomics.load(words, ANSWERED) !== last) return null; // still on a run the loop stopped waiting for
    const budgetMs = Math.min(INLINE_CODE_MS, task.timeoutMs);
    const text = JSON.stringify({ task, budgetMs } satisfies InlineRequest);
    if (Buffer.byteLength(text) > thread.request.length) return null;
    words[REQUEST_BYTES] = thread.request.write(text, 0);
    Atomics.store(words, REQUESTED, last + 1);
    Atomics.notify(words, REQUESTED);
    // Most code answers within tens of microseconds: the loop spins that long, then sleeps.
    const spinUntil = performance.now() + SPIN_MS;
    while (Atomics.load(words, ANSWERED) === last && performance.now() < spinUntil);
    if (Atomics.load(words, ANSWERED) === last && Atomics.wait(words, ANSWERED, last, WAIT_MS - SPIN_MS) === 'timed-out') {
      this.watch(thread, last + 1);
      return null;
    }
    const bytes = words[ANSWER_BYTES]!;
    if (bytes < 0) return null; // an answer too large to hand over: the pool gives it, or refuses it
    const outcome = JSON.parse(thread.answer.toString('utf8', 0, bytes)) as CodeOutcome;
    return needsLonger(outcome, budgetMs, task) ? null : outcome;
  }

  get isLoaded(): boolean {
    return this.thread?.ready === true;
  }

  loaded(): Promise<boolean> {
    return this.current().started;
  }

  /** Replaces the thread if it is still on task `id` after `STUCK_MS`. */
  private watch(thread: SandboxThread, id: number): void {
    if (thread.stuck) clearTimeout(thread.stuck);
    thread.stuck = setTimeout(() => {
      if (this.thread === thread && Atomics.load(thread.words, ANSWERED) < id) this.replace(thread);
    }, STUCK_MS);
    thread.stuck.unref();
  }

  /** The thread, started if there is none. */
  private current(): SandboxThread {
    return (this.thread ??= this.start());
  }

  private replace(thread: SandboxThread): void {
    if (this.thread === thread) this.thread = null;
    if (thread.stuck) clearTimeout(thread.stuck);
    thread.port.close();
    void thread.worker.terminate();
  }

  private start(): SandboxThread {
    const { port1, port2 } = new MessageChannel();
    const control = new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT);
    const request = new SharedArrayBuffer(HANDOVER_BYTES);
    const answer = new SharedArrayBuffer(HANDOVER_BYTES);
    const workerData: InlineWorkerData = { port: port2, control, request, answer, memoryMb: this.memoryMb };
    const worker = startWorkerBeside(__filename, 'inline-code.worker', { workerData, transferList: [port2] });
    worker.unref();
    let settle: (ready: boolean) => void = () => undefined;
    const thread: SandboxThread = {
      worker,
      port: port1,
      words: new Int32Array(control),
      request: Buffer.from(request),
      answer: Buffer.from(answer),
      ready: false,
      started: new Promise<boolean>((resolve) => (settle = resolve)),
      stuck: null,
    };
    port1.once('message', (start: InlineStart) => {
      thread.ready = start.ready;
      settle(start.ready);
      // Until then the port kept the process alive for a caller waiting for `loaded()`.
      port1.unref();
      if (!start.ready) this.replace(thread); // not loaded (short of memory?): the next run tries again
    });
    const gone = (): void => {
      settle(false);
      this.replace(thread);
    };
    worker.once('error', gone);
    worker.once('exit', gone);
    return thread;
  }
}

