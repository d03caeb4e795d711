import { IntegrationError } from '@flowgate/flow-engine';
import { FairTaskQueue } from './fair-task-queue';

const NEVER = new AbortController().signal;
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Tasks a test left running: finished after it, so that no deadline of theirs fires during a later test file. */
const leftRunning = new Map<string, () => void>();

afterEach(async () => {
  while (leftRunning.size > 0) {
    for (const [task, finish] of leftRunning) {
      leftRunning.delete(task);
      finish();
    }
    await flush(); // a finished task hands its thread to a waiting one, which is then left running
  }
});

/** A queue whose tasks finish when the test says so; `started` lists them in the order they got a thread. */
function controlled(options: { threads?: number; maxQueuePerProject?: number; taskMs?: number } = {}) {
  const clock = { ms: 0 };
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const stopped: string[] = [];
  const queue = new FairTaskQueue<string, string>(
    { threads: options.threads ?? 1, maxQueuePerProject: options.maxQueuePerProject ?? 10, taskMs: options.taskMs ?? 60_000, now: () => clock.ms },
    (task, signal, running) =>
      new Promise((resolve, reject) => {
        started.push(task);
        running();
        const done = () => (leftRunning.delete(task), resolve(task));
        finishers.set(task, done);
        leftRunning.set(task, done);
        signal.addEventListener('abort', () => (leftRunning.delete(task), stopped.push(task), reject(new Error('terminated'))), { once: true });
      }),
  );
  const finish = async (task: string) => {
    finishers.get(task)!();
    await flush();
  };
  return { queue, started, stopped, finish, clock };
}

describe('FairTaskQueue', () => {
  it("gives a thread that comes free to another project's task before the rest of a backlog", async () => {
    const { queue, started, finish } = controlled();
    const results = ['noisy 1', 'noisy 2', 'noisy 3'].map((task) => queue.run('noisy', task, NEVER));
    results.push(queue.run('quiet', 'quiet 1', NEVER));
    await flush();
    expect(started).toEqual(['noisy 1']);
    await finish('noisy 1');
    expect(started).toEqual(['noisy 1', 'quiet 1']);
    await finish('quiet 1');
    await finish('noisy 2');
    await finish('noisy 3');
    await expect(Promise.all(results)).resolves.toEqual(['noisy 1', 'noisy 2', 'noisy 3', 'quiet 1']);
  });

  it('takes turns between projects whose tasks cost the same', async () => {
    const { queue, started, finish } = controlled();
    for (const task of ['a 1', 'a 2', 'a 3']) void queue.run('a', task, NEVER);
    for (const task of ['b 1', 'b 2']) void queue.run('b', task, NEVER);
    for (const task of ['a 1', 'b 1', 'a 2', 'b 2']) await finish(task);
    expect(started).toEqual(['a 1', 'b 1', 'a 2', 'b 2', 'a 3']);
  });

  it('gives threads by thread time consumed: cheap tasks of one project go before the next costly task of another', async () => {
    const { queue, started, finish, clock } = controlled();
    for (const task of ['costly 1', 'costly 2']) void queue.run('costly', task, NEVER);
    for (const task of ['cheap 1', 'cheap 2', 'cheap 3']) void queue.run('cheap', task, NEVER);
    clock.ms += 1000; // the costly task held the thread a second
    await finish('costly 1');
    for (const task of ['cheap 1', 'cheap 2', 'cheap 3']) {
      clock.ms += 10;
      await finish(task);
    }
    // Turn by turn it would have been costly 1, cheap 1, costly 2, …
    expect(started).toEqual(['costly 1', 'cheap 1', 'cheap 2', 'cheap 3', 'costly 2']);
  });

  it("stops a task at its deadline (the thread is terminated) with a clear error, and starts the next", async () => {
    const { queue, started, stopped } = controlled({ taskMs: 20 });
    const long = queue.run('noisy', 'long', NEVER);
    const next = queue.run('quiet', 'next', NEVER);
    await expect(long).rejects.toEqual(new IntegrationError('gateway', 'the work ran longer than 20 ms on a worker thread and was stopped'));
    expect(stopped).toContain('long');
    await flush();
    expect(started).toEqual(['long', 'next']);
    void next.catch(() => undefined);
  });

  it("refuses a project's task at once when its own queue is full, not another project's", async () => {
    const { queue } = controlled({ maxQueuePerProject: 1 });
    void queue.run('noisy', 'running', NEVER);
    void queue.run('noisy', 'waiting', NEVER);
    await expect(queue.run('noisy', 'one too many', NEVER)).rejects.toBeInstanceOf(IntegrationError);
    const other = queue.run('quiet', 'queued', NEVER);
    await flush();
    await expect(Promise.race([other.then(() => 'settled'), Promise.resolve('waiting')])).resolves.toBe('waiting');
  });

  it('drops a waiting task whose signal fires', async () => {
    const { queue, started, finish } = controlled();
    void queue.run('a', 'running', NEVER);
    const cancel = new AbortController();
    const waiting = queue.run('a', 'cancelled', cancel.signal);
    cancel.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    await finish('running');
    expect(started).toEqual(['running']);
  });
});
