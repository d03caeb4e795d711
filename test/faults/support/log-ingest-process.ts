import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, waitUntil } from '@flowgate/testing';

const root = resolve(__dirname, '..', '..', '..');

/** A child killed by a signal keeps exitCode null; either field set means it is gone. */
const gone = (child: ChildProcess | null): boolean => child === null || child.exitCode !== null || child.signalCode !== null;

export interface LogIngestEnv {
  DATABASE_URL: string;
  KAFKA_BROKERS: string;
  KAFKA_LOG_TOPIC: string;
  LOG_INGEST_GROUP: string;
  LOG_INGEST_ROLLUP_FOLD_MS?: string;
}

/** log-ingest as a real process (`node scripts/run-ts.js apps/log-ingest/src/main.ts`), as operators run it. */
export class LogIngestProcess {
  private child: ChildProcess | null = null;
  private port = 0;
  readonly logFile: string;

  constructor(
    private readonly env: LogIngestEnv,
    name: string,
  ) {
    mkdirSync(join(root, '.cache', 'faultdrills'), { recursive: true });
    this.logFile = join(root, '.cache', 'faultdrills', `${name}.log`);
  }

  async start(): Promise<void> {
    // One log per drill, started afresh by each run (restarts within the run append).
    const out = openSync(this.logFile, this.port ? 'a' : 'w');
    if (!this.port) this.port = await freePort();
    this.child = spawn(process.execPath, [join(root, 'scripts', 'run-ts.js'), 'apps/log-ingest/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        ...this.env,
        KAFKA_LOG_DLQ_TOPIC: `${this.env.KAFKA_LOG_TOPIC}.dlq`,
        LOG_INGEST_PORT: String(this.port),
        LOG_INGEST_RETRY_MAX_MS: '1000',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    const child = this.child;
    await waitUntil(async () => {
      if (gone(child)) throw new Error(`fault drill: log-ingest exited (${child.exitCode ?? child.signalCode}): ${this.logTail()}`);
      return (await this.readiness()) === 200;
    }, (ready) => ready, `log-ingest to be ready on port ${this.port} (log: ${this.logFile})`, { timeoutMs: 90000 });
  }

  /** HTTP status of /readyz, or 0 when the process does not answer; throws once the process has died. */
  async readiness(): Promise<number> {
    return (await this.readinessReport()).status;
  }

  /** /readyz as status and body (which names each dependency's state); status 0 when it does not answer. */
  async readinessReport(): Promise<{ status: number; body: Record<string, string> | null }> {
    if (gone(this.child)) throw new Error(`fault drill: log-ingest is not running: ${this.logTail()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${this.port}/readyz`, { signal: AbortSignal.timeout(3000) });
      return { status: response.status, body: (await response.json()) as Record<string, string> };
    } catch {
      return { status: 0, body: null };
    }
  }

  /** kill -9: no shutdown hook runs, nothing is flushed or committed. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || gone(child)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  /** SIGTERM: the graceful path; resolves with the exit code. */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (!child || gone(child)) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), 30000);
    });
    const code = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    if (code === 'timeout') {
      child.kill('SIGKILL');
      return null;
    }
    this.child = null;
    return code;
  }

  isRunning(): boolean {
    return !gone(this.child);
  }

  logTail(lines = 15): string {
    try {
      return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }
}
