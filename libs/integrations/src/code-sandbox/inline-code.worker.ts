/**
 * The thread of the inline sandbox (inline-code-sandbox.ts `ThreadCodeSandbox`): runs one task at
 * a time for at most its budget, while the calling thread waits. Each answer is posted on the
 * port, then the task's id is stored in the shared word and the caller woken (`Atomics.notify`):
 * a caller that stopped waiting finds the answer later, by its id.
 */
import type { CodeOutcome, CodeTask } from '@flowgate/flow-engine';
import { workerData, type MessagePort } from 'node:worker_threads';
import { CodeSandbox } from './quickjs-sandbox';

export interface InlineWorkerData {
  port: MessagePort;
  /** One Int32: the id of the last task answered. */
  done: SharedArrayBuffer;
  memoryMb: number;
}

export type InlineRequest = { id: number; task: CodeTask; budgetMs: number };
export type InlineAnswer = { ready: true } | { ready: false; message: string } | { id: number; outcome: CodeOutcome };

const { port, done, memoryMb } = workerData as InlineWorkerData;
const word = new Int32Array(done);

async function main(): Promise<void> {
  let sandbox: CodeSandbox;
  try {
    sandbox = await CodeSandbox.load({ memoryMb });
  } catch (error) {
    port.postMessage({ ready: false, message: error instanceof Error ? error.message : String(error) } satisfies InlineAnswer);
    return;
  }
  port.on('message', ({ id, task, budgetMs }: InlineRequest) => {
    const outcome = sandbox.run(task, budgetMs);
    port.postMessage({ id, outcome } satisfies InlineAnswer);
    Atomics.store(word, 0, id);
    Atomics.notify(word, 0);
    // A run that broke the module: this thread ends, and the owner starts another.
    if (sandbox.broken) process.exit(0);
  });
  port.postMessage({ ready: true } satisfies InlineAnswer);
}

void main();
