// Flowgate's apps (and other Node programs) as child processes, the way `npm start` runs them:
// for end-to-end tests, browser tests, fault drills and benchmarks.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { waitUntil } from './polling';

const ROOT = path.resolve(__dirname, '../../..');
/** How much of a process's output is kept for error messages (a benchmark's gateway runs for minutes). */
const KEPT_OUTPUT = 64 * 1024;

export interface AppProcess {
  name: string;
  child: ChildProcess;
  /** The tail of what the process wrote to stdout and stderr. */
  output(): string;
  /** SIGTERM (SIGKILL after 15 s), then the exit code. */
  stop(): Promise<number | null>;
}

/** Runs `node <args>` in `cwd` (the repository by default). */
export function startProcess(name: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd = ROOT): AppProcess {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-KEPT_OUTPUT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** One Flowgate app (`apps/<name>/src/main.ts`) as its own process, exactly as `npm start` runs it. */
export function spawnApp(name: string, env: Record<string, string>, nodeFlags: string[] = []): AppProcess {
  return startProcess(name, [...nodeFlags, 'scripts/run-ts.js', `apps/${name}/src/main.ts`], { ...process.env, LOG_LEVEL: 'warn', ...env });
}

/**
 * One app (`apps/<name>/src/main.ts`, as `npm start` runs it) that is expected not to start, run
 * to its end: its exit code and the lines it wrote to stderr (a boot failure is one line, exit 1).
 */
export function bootApp(name: string, env: NodeJS.ProcessEnv, timeoutMs = 45_000): { status: number | null; lines: string[] } {
  const result = spawnSync(process.execPath, ['scripts/run-ts.js', `apps/${name}/src/main.ts`], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: timeoutMs });
  return { status: result.status, lines: result.stderr.trim().split('\n') };
}

function getStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(1000, () => req.destroy());
  });
}

const gone = (app: AppProcess): boolean => app.child.exitCode !== null || app.child.signalCode !== null;

/** Waits until `url` answers 200 (with `headers`, e.g. a Host), failing with the app's output when it exits or times out. */
export async function waitReady(app: AppProcess, url: string, timeoutMs = 60_000, headers: Record<string, string> = {}): Promise<void> {
  try {
    await waitUntil(
      () => {
        if (gone(app)) throw new Error(`${app.name} exited with ${app.child.exitCode ?? app.child.signalCode}`);
        return getStatus(url, headers);
      },
      (status) => status === 200,
      `${app.name} to answer 200 at ${url}`,
      { timeoutMs, intervalMs: 200 },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}:\n${app.output()}`);
  }
}

/** Waits until the app's output matches `pattern` (e.g. the port it listens on) and returns the match. */
export async function waitForOutput(app: AppProcess, pattern: RegExp, timeoutMs = 45_000): Promise<RegExpExecArray> {
  try {
    return await waitUntil(
      () => {
        const match = pattern.exec(app.output());
        if (!match && gone(app)) throw new Error(`${app.name} exited with ${app.child.exitCode ?? app.child.signalCode}`);
        return match;
      },
      (match) => match !== null,
      `${app.name} to write ${pattern}`,
      { timeoutMs, intervalMs: 20 },
    ) as RegExpExecArray;
  } catch (error) {
    app.child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}:\n${app.output()}`);
  }
}
