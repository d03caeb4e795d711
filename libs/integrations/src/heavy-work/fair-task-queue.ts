import { IntegrationError } from '@flowgate/flow-engine';

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
}

interface Waiting<T, R> {
  task: T;
  signal: AbortSignal;
  resolve(result: R): void;
  reject(error: unknown): void;
  onAbort(): void;
}

interface ProjectTasks<T, R> {
  waiting: Array<Waiting<T, R>>;
  running: number;
}

/**
 * The heavy-work pool's threads shared fairly between projects: a queue per project, and a
 * thread that comes free goes to the waiting project with the fewest tasks running (ties in
 * round-robin order), so a project that sends many long tasks holds at most its share of the
 * threads and another project's task waits for one task at most, not for the whole backlog.
 * A task running longer than `taskMs` is stopped, which terminates its thread (Piscina starts
 * another), so no task can hold a thread for good.
 */
export class FairTaskQueue<T, R> {
  /** Projects with tasks waiting or running, in round-robin order (a project served moves to the end). */
  private readonly projects = new Map<string, ProjectTasks<T, R>>();
  private running = 0;

  constructor(
    private readonly options: FairTaskQueueOptions,
    private readonly start: StartTask<T, R>,
  ) {}

  run(projectId: string, task: T, signal: AbortSignal): Promise<R> {
    if (signal.aborted) return Promise.reject(signal.reason);
    let project = this.projects.get(projectId);
    if (project === undefined) this.projects.set(projectId, (project = { waiting: [], running: 0 }));
    if (this.running < this.options.threads && project.waiting.length === 0) return this.launch(projectId, project, task, signal);
    if (project.waiting.length >= this.options.maxQueuePerProject) {
      return Promise.reject(
        new IntegrationError('gateway', `this project already has ${this.options.maxQueuePerProject} tasks waiting for a worker thread; try again shortly`),
      );
    }
    const owner = project;
    return new Promise<R>((resolve, reject) => {
      const waiting: Waiting<T, R> = {
        task,
        signal,
        resolve,
        reject,
        onAbort: () => {
          owner.waiting.splice(owner.waiting.indexOf(waiting), 1);
          this.forget(projectId, owner);
          reject(signal.reason);
        },
      };
      owner.waiting.push(waiting);
      signal.addEventListener('abort', waiting.onAbort, { once: true });
    });
  }

  private launch(projectId: string, project: ProjectTasks<T, R>, task: T, signal: AbortSignal): Promise<R> {
    this.running++;
    project.running++;
    // The project just served goes to the end of the round.
    this.projects.delete(projectId);
    this.projects.set(projectId, project);
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const running = (): void => {
      timer ??= setTimeout(() => deadline.abort(), this.options.taskMs).unref();
    };
    const stop = AbortSignal.any([signal, deadline.signal]);
    const ended = (): void => {
      clearTimeout(timer);
      this.next();
      this.running--;
      project.running--;
      this.forget(projectId, project);
    };
    return this.start(task, stop, running).then(
      (result) => {
        ended();
        return result;
      },
      (error: unknown) => {
        ended();
        if (deadline.signal.aborted && !signal.aborted) {
          throw new IntegrationError('gateway', `the work ran longer than ${this.options.taskMs} ms on a worker thread and was stopped`);
        }
        throw error;
      },
    );
  }

  /** Hands the thread that is coming free (still counted as running) to the next waiting project. */
  private next(): void {
    let chosen: [string, ProjectTasks<T, R>] | null = null;
    for (const entry of this.projects) {
      if (entry[1].waiting.length > 0 && (chosen === null || entry[1].running < chosen[1].running)) chosen = entry;
    }
    if (chosen === null) return;
    const [projectId, project] = chosen;
    const waiting = project.waiting.shift()!;
    waiting.signal.removeEventListener('abort', waiting.onAbort);
    // The thread is handed over after the ended task's own bookkeeping.
    queueMicrotask(() => this.launch(projectId, project, waiting.task, waiting.signal).then(waiting.resolve, waiting.reject));
  }

  private forget(projectId: string, project: ProjectTasks<T, R>): void {
    if (project.running === 0 && project.waiting.length === 0) this.projects.delete(projectId);
  }
}
