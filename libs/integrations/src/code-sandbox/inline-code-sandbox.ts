import type { CodeOutcome, CodeTask } from '@flowgate/flow-engine';
import { TYPESCRIPT_HOOK } from '@flowgate/platform';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { InlineAnswer, InlineRequest, InlineWorkerData } from './inline-code.worker';
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
/** Run once through the port when a thread is ready: its first task takes tens of milliseconds (the message path warming up). */
const WARM_UP: CodeTask = { code: 'return input.a', input: { a: 1 }, timeoutMs: 1000, maxResultChars: 64 };

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
  port: MessagePort;
  /** The id of the last task the thread answered (shared with it). */
  done: Int32Array;
  ready: boolean;
  /** Resolves once the thread is ready (true) or failed to start (false). */
  started: Promise<boolean>;
  /** The task the loop stopped waiting for (0: none): the thread takes no other until it answers. */
  abandoned: number;
  stuck: NodeJS.Timeout | null;
}

/**
 * The sandbox on a thread of its own, waited for synchronously (`Atomics.wait`, then the answer
 * read with `receiveMessageOnPort`): an answer within `WAIT_MS` comes back as if the code had run
 * on the loop; otherwise the loop goes on (null: the pool runs the code again) and the thread is
 * left to finish, or is replaced after `STUCK_MS`. Runs are never queued here: while the thread
 * is busy with an abandoned run, or starting, code goes to the pool.
 */
export class ThreadCodeSandbox implements InlineCode {
  private thread: SandboxThread | null = null;
  private nextId = 0;

  constructor(private readonly memoryMb: number) {}

  runNow(task: CodeTask): CodeOutcome | null {
    const thread = this.current();
    if (!thread.ready || thread.abandoned !== 0) return null;
    const id = ++this.nextId;
    const budgetMs = Math.min(INLINE_CODE_MS, task.timeoutMs);
    thread.port.postMessage({ id, task, budgetMs } satisfies InlineRequest);
    // Most code answers within tens of microseconds: the loop spins that long, then sleeps.
    const spinUntil = performance.now() + SPIN_MS;
    while (Atomics.load(thread.done, 0) === id - 1 && performance.now() < spinUntil);
    const answered = Atomics.load(thread.done, 0) !== id - 1 || Atomics.wait(thread.done, 0, id - 1, WAIT_MS - SPIN_MS) !== 'timed-out';
    const answer = answered ? this.take(thread, id) : undefined;
    if (answer === undefined) {
      this.abandon(thread, id);
      return null;
    }
    return needsLonger(answer, budgetMs, task) ? null : answer;
  }

  get isLoaded(): boolean {
    return this.thread?.ready === true;
  }

  loaded(): Promise<boolean> {
    return this.current().started;
  }

  /** The answer to task `id`, read from the port (the thread posted it before it stored the id). */
  private take(thread: SandboxThread, id: number): CodeOutcome | undefined {
    for (let message = receiveMessageOnPort(thread.port); message !== undefined; message = receiveMessageOnPort(thread.port)) {
      const answer = message.message as InlineAnswer;
      if ('id' in answer && answer.id === id) return answer.outcome;
    }
    return undefined;
  }

  private abandon(thread: SandboxThread, id: number): void {
    thread.abandoned = id;
    thread.stuck = setTimeout(() => {
      if (this.thread === thread && thread.abandoned === id) this.replace(thread);
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
    const done = new SharedArrayBuffer(4);
    // Ids go on from the last thread's: a late answer of a replaced thread is never taken for a new one's.
    Atomics.store(new Int32Array(done), 0, this.nextId);
    const worker = spawnWorker({ port: port2, done, memoryMb: this.memoryMb }, [port2]);
    worker.unref();
    let settle: (ready: boolean) => void = () => undefined;
    const thread: SandboxThread = {
      worker,
      port: port1,
      done: new Int32Array(done),
      ready: false,
      started: new Promise<boolean>((resolve) => (settle = resolve)),
      abandoned: 0,
      stuck: null,
    };
    // Answers the loop did not wait for, and the thread's start, arrive here.
    port1.on('message', (answer: InlineAnswer) => {
      if ('id' in answer) {
        if (answer.id !== thread.abandoned) return;
        thread.abandoned = 0;
        if (thread.stuck) clearTimeout(thread.stuck);
        return;
      }
      thread.ready = answer.ready;
      settle(answer.ready);
      // Until then the port kept the process alive for a caller waiting for `loaded()`.
      port1.unref();
      if (!answer.ready) return this.replace(thread); // not loaded (short of memory?): the next run tries again
      // Code goes to the pool until the warm-up's answer is back (no stuck timer: it is ours).
      thread.abandoned = ++this.nextId;
      port1.postMessage({ id: thread.abandoned, task: WARM_UP, budgetMs: WARM_UP.timeoutMs } satisfies InlineRequest);
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

/** The compiled worker next to this file, or the TypeScript source through the TypeScript hook (scripts/register-ts.js). */
function spawnWorker(workerData: InlineWorkerData, transferList: MessagePort[]): Worker {
  if (__filename.endsWith('.js')) return new Worker(path.join(__dirname, 'inline-code.worker.js'), { workerData, transferList });
  const source = path.join(__dirname, 'inline-code.worker.ts');
  return new Worker(`require(${JSON.stringify(TYPESCRIPT_HOOK)}); require(${JSON.stringify(source)});`, { eval: true, workerData, transferList });
}
