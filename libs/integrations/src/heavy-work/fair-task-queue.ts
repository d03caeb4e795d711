import { IntegrationError } from '@flowgate/flow-engine';
import { FairShares, ShareQueueFull } from '@flowgate/platform';

/**
 * Starts a task on a thread; the signal fires when it must stop (the thread is then
 * terminated). `running` is called once the thread begins the work: the task's time counts
 * from then (starting a thread is not the task's doing).
 */
export type StartTask<T, R> = (task: T, signal: AbortSignal, running: () => void) => Promise<R>;

export interface FairTaskQueueOptions {
  /** Tasks running at once (the pool's threads). */
  threads: number;
  /** Tasks of one project that may wait; beyond that its next task fails at once. */
  maxQueuePerProject: number;
  /** Longest a task may run on a thread before it is stopped (and its thread replaced). */
  taskMs: number;
  /** Tests: a clock of their own (what a project consumed is thread time on it). */
  now?: () => number;
}

/**
 * The heavy-work pool's threads shared between projects by the thread time each consumed
 * (FairShares): a queue per project, and a thread that comes free goes to the waiting project
 * whose tasks held threads the least of late (its running ones included), so a project sending
 * many long tasks gets threads in proportion to their cost, not one per turn, and another
 * project's cheap task waits for one task at most. A task running longer than `taskMs` is
 * stopped, which terminates its thread (Piscina starts another), so no task holds a thread for good.
 */
export class FairTaskQueue<T, R> {
  private readonly shares: FairShares;

  constructor(
    private readonly options: FairTaskQueueOptions,
    private readonly start: StartTask<T, R>,
  ) {
    this.shares = new FairShares({ capacity: options.threads, perTenant: options.threads, now: options.now });
  }

  run(projectId: string, task: T, signal: AbortSignal): Promise<R> {
    if (signal.aborted) return Promise.reject(signal.reason);
    // A free thread starts the task at once; else it waits for its project's turn.
    const free = this.shares.tryAcquire(projectId);
    if (free !== null) return this.launch(task, signal).finally(() => free.release());
    return this.shares.acquire(projectId, signal, this.options.maxQueuePerProject).then(
      (held) => this.launch(task, signal).finally(() => held.release()),
      (error: unknown) => {
        if (!(error instanceof ShareQueueFull)) throw error;
        throw new IntegrationError('gateway', `this project already has ${this.options.maxQueuePerProject} tasks waiting for a worker thread; try again shortly`);
      },
    );
  }

  private async launch(task: T, signal: AbortSignal): Promise<R> {
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const running = (): void => {
      timer ??= setTimeout(() => deadline.abort(), this.options.taskMs).unref();
    };
    try {
      return await this.start(task, AbortSignal.any([signal, deadline.signal]), running);
    } catch (error) {
      if (deadline.signal.aborted && !signal.aborted) {
        throw new IntegrationError('gateway', `the work ran longer than ${this.options.taskMs} ms on a worker thread and was stopped`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
