import type { CodeOutcome, CodeTask } from '@flowgate/flow-engine';
import { CodeSandbox } from './quickjs-sandbox';

/**
 * How long code may run on the calling thread (a gateway's event loop): as long as the flow
 * engine's first slice of a request. Code that needs longer is stopped and run again from the
 * start in the heavy-work pool, with its whole timeout; running it twice is safe, as the
 * sandbox reaches nothing outside it.
 */
export const INLINE_CODE_MS = 1;

/**
 * Run Code's sandbox on the process's own thread, for code short enough not to hold it: most
 * code (a sum, a reshaped object) runs here in a fraction of a millisecond, with no thread hop
 * (bench/run-code.bench.ts). One per process, shared by every project (each run gets a fresh
 * runtime and context); loaded on first use, until when code runs in the pool.
 */
export class InlineCodeSandbox {
  private sandbox: CodeSandbox | null = null;
  private loading: Promise<void> | null = null;

  constructor(private readonly memoryMb: number) {}

  /** The outcome, or null when the code needs longer than INLINE_CODE_MS (or the sandbox is not loaded yet). */
  runNow(task: CodeTask): CodeOutcome | null {
    const sandbox = this.ready();
    if (sandbox === null) return null;
    const budget = Math.min(INLINE_CODE_MS, task.timeoutMs);
    const outcome = sandbox.run(task, budget);
    if (sandbox.broken) this.sandbox = null;
    if (!outcome.ok && outcome.code === 'code_timeout' && budget < task.timeoutMs) return null;
    return outcome;
  }

  get isLoaded(): boolean {
    return this.sandbox !== null;
  }

  /**
   * True once the sandbox is loaded (it starts loading): a first run waits for it (~0.5 s)
   * rather than for a pool thread to start and load its own (seconds on a busy machine).
   */
  async loaded(): Promise<boolean> {
    if (this.ready() === null) await this.loading;
    return this.sandbox !== null;
  }

  /** The loaded sandbox, else null (and it starts loading). */
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
