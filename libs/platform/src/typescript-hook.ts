import path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The require hook that runs the TypeScript sources (scripts/register-ts.js), for worker threads
 * and child processes started from source (development, tests). A compiled build has plain
 * JavaScript beside its callers and never loads it.
 */
export const TYPESCRIPT_HOOK = path.resolve(__dirname, '../../../scripts/register-ts.js');

/**
 * Starts the worker thread whose module is `name` beside `callerFile` (the caller's
 * `__filename`): the compiled `name.js` next to a compiled caller, else `name.ts` through the
 * TypeScript hook.
 */
export function startWorkerBeside(callerFile: string, name: string, options: WorkerOptions): Worker {
  const directory = path.dirname(callerFile);
  if (callerFile.endsWith('.js')) return new Worker(path.join(directory, `${name}.js`), options);
  const source = path.join(directory, `${name}.ts`);
  return new Worker(`require(${JSON.stringify(TYPESCRIPT_HOOK)}); require(${JSON.stringify(source)});`, { ...options, eval: true });
}
