import { FairShares, ShareQueueFull, TYPESCRIPT_HOOK } from '@flowgate/platform';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import Piscina from 'piscina';
import { AppError } from '../../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../../config/control-plane.config';
import type { SandboxSettings, TestRunJob, TestRunOutcome } from './test-run-job';

/** Past the flow's own deadline (which the engine enforces), how long a thread may take before it is terminated. */
const TERMINATE_AFTER_DEADLINE_MS = 2000;
/** Idle threads exit after this long, and are started again on the next run. */
const IDLE_MS = 60_000;

const tooManyWaiting = (): AppError => new AppError('unavailable', 'Too many test runs are waiting; try again in a moment', undefined, { 'Retry-After': '1' });

class DeadlineError extends Error {
  override name = 'DeadlineError';
}

/**
 * Test runs execute in worker threads with V8 resource limits (TEST_RUN_THREADS threads of at
 * most TEST_RUN_HEAP_MB each, TEST_RUN_QUEUE runs waiting): a run that fills its heap, or holds
 * its thread past the deadline, ends its own thread — never the control plane, whose event loop
 * only passes messages. Before, one test run could add 359 MB to the control plane's heap and 4
 * at once crashed it (test-run-sandbox.int.spec.ts).
 */
@Injectable()
export class TestRunSandbox implements OnApplicationShutdown {
  private readonly pool: Piscina<TestRunJob, TestRunOutcome>;
  /** The threads shared between accounts by the thread time each used (FairShares); Piscina's own queue stays empty. */
  private readonly shares: FairShares;
  private readonly queue: number;
  private readonly timeoutMs: number;
  private readonly heapMb: number;

  constructor(@Inject(CONFIG) config: ControlPlaneConfig) {
    const settings: SandboxSettings = {
      gatewayPublicUrl: config.gatewayPublicUrl,
      redisUrl: config.redisUrl,
      redisClusterNodes: config.redisClusterNodes,
      encryptionKey: config.encryptionKey,
      previousEncryptionKey: config.previousEncryptionKey,
      dataUrl: config.data.url,
      flow: config.flow,
      logLevel: config.logLevel,
    };
    this.timeoutMs = config.flow.timeoutMs + TERMINATE_AFTER_DEADLINE_MS;
    this.heapMb = config.testRunSandbox.heapMb;
    this.queue = config.testRunSandbox.queue;
    this.shares = new FairShares({ capacity: config.testRunSandbox.threads, perTenant: config.testRunSandbox.threads });
    // From TypeScript source (development, tests) the threads load the worker through the TypeScript hook.
    const compiled = __filename.endsWith('.js');
    this.pool = new Piscina({
      filename: path.join(__dirname, compiled ? 'test-run.worker.js' : 'test-run.worker.ts'),
      execArgv: compiled ? [] : ['-r', TYPESCRIPT_HOOK],
      workerData: settings,
      // The integrations read FLOWGATE_EGRESS_*, ANTHROPIC_BASE_URL… from the environment: the
      // control plane's own, as this process sees it (a test's changes included).
      env: { ...process.env },
      // One thread kept warm: loading the engine and the ports takes a while on a busy machine.
      minThreads: 1,
      maxThreads: config.testRunSandbox.threads,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: config.testRunSandbox.heapMb, maxYoungGenerationSizeMb: 16 },
    });
  }

  /**
   * Runs one test flow on a thread once it is the account's turn: a thread that comes free goes
   * to the waiting account whose runs held threads the least of late, so one account's backlog
   * of costly runs does not stand before another account's run; an account with TEST_RUN_QUEUE
   * runs waiting gets 503. A thread that dies or overruns answers with a clear error.
   * The deadline counts from when the thread takes the run (it says so on `started`): starting
   * a thread, loading its code and adapters (before `started`), or waiting for one, is not the
   * flow's time.
   */
  async run(accountId: string, job: TestRunJob): Promise<TestRunOutcome> {
    let lease;
    try {
      lease = await this.shares.acquire(accountId, undefined, this.queue);
    } catch (error) {
      if (error instanceof ShareQueueFull) throw tooManyWaiting();
      throw error;
    }
    try {
      return await this.runOnThread(job);
    } finally {
      lease.release();
    }
  }

  /** Runs of the account waiting for a thread. */
  waitingOf(accountId: string): number {
    return this.shares.waitingOf(accountId);
  }

  private async runOnThread(job: TestRunJob): Promise<TestRunOutcome> {
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    port1.once('message', () => (timer = setTimeout(() => abort.abort(new DeadlineError()), this.timeoutMs)));
    port1.unref();
    try {
      return await this.pool.run({ ...job, started: port2 }, { signal: abort.signal, transferList: [port2] });
    } catch (error) {
      throw this.failure(error);
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }

  private failure(error: unknown): unknown {
    const { code, name, message } = (error ?? {}) as { code?: unknown; name?: unknown; message?: unknown };
    if (code === 'ERR_WORKER_OUT_OF_MEMORY')
      return new AppError('run_memory_exceeded', `The test run used more memory than a test run may (${this.heapMb} MB) and was stopped`);
    if (name === 'AbortError' || error instanceof DeadlineError)
      return new AppError('flow_timeout', `The test run did not finish within ${this.timeoutMs} ms and was stopped`);
    if (code === 'ERR_WORKER_INIT_FAILED' || (typeof message === 'string' && /worker.*(exit|terminat)/i.test(message)))
      return new AppError('unavailable', 'The test run stopped unexpectedly; try again', undefined, { 'Retry-After': '1' });
    return error;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.destroy();
  }
}
