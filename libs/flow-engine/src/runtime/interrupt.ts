import { RunInterrupted } from './run-errors';

/**
 * The AbortSignal handed to ports, firing at the deadline or when the caller's signal fires.
 * Created only when a flow reaches its first asynchronous block, so synchronous flows start no
 * timer.
 */
export class Interrupt {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onExternalAbort = (): void => this.fire('cancelled');

  constructor(
    deadlineAt: number,
    private readonly external: AbortSignal | undefined,
  ) {
    if (external?.aborted) this.fire('cancelled');
    else external?.addEventListener('abort', this.onExternalAbort, { once: true });
    if (deadlineAt !== Infinity && !this.signal.aborted) {
      this.timer = setTimeout(() => this.fire('deadline'), Math.max(0, deadlineAt - Date.now()));
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Settles like `promise`, or rejects with `RunInterrupted` as soon as the signal fires. */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) {
      promise.catch(() => undefined);
      return Promise.reject(signal.reason as RunInterrupted);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason as RunInterrupted);
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.external?.removeEventListener('abort', this.onExternalAbort);
  }

  private fire(reason: RunInterrupted['reason']): void {
    if (!this.controller.signal.aborted) this.controller.abort(new RunInterrupted(reason));
  }
}
