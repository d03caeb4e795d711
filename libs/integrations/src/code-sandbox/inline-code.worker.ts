/**
 * The thread of the inline sandbox (inline-code-sandbox.ts `ThreadCodeSandbox`): runs one task at
 * a time while the calling thread waits. Tasks and answers pass through shared memory, and the
 * thread waits for the next task in `Atomics.wait`, not in an event loop, so that handing a task
 * over costs a wake-up and a copy: the caller writes the task's JSON and bumps `REQUESTED`; this
 * thread runs it for at most its budget, writes the outcome's JSON (or -1 when it does not fit)
 * and sets `ANSWERED` to the same number.
 */
import type { CodeOutcome } from '@flowgate/flow-engine';
import { workerData } from 'node:worker_threads';
import { ANSWER_BYTES, ANSWERED, REQUEST_BYTES, REQUESTED, type InlineRequest, type InlineStart, type InlineWorkerData } from './inline-code-protocol';
import { CodeSandbox } from './quickjs-sandbox';

/** Warms up, says it is ready, then answers tasks until the thread is terminated. */
function serve(sandbox: CodeSandbox, { port, control, request, answer }: InlineWorkerData, warmUp: InlineRequest): never {
  const words = new Int32Array(control);
  const requestText = Buffer.from(request);
  const answerText = Buffer.from(answer);
  // Every thread starts from task 0; a task written before this thread waits is seen at once.
  let seen = 0;
  const answerTask = ({ task, budgetMs }: InlineRequest): void => {
    const text = JSON.stringify(sandbox.run(task, budgetMs) satisfies CodeOutcome);
    words[ANSWER_BYTES] = Buffer.byteLength(text) > answerText.length ? -1 : answerText.write(text, 0);
  };
  // The first task through this path takes far longer than the next: not a caller's.
  answerTask(warmUp);
  port.postMessage({ ready: true } satisfies InlineStart);
  for (;;) {
    Atomics.wait(words, REQUESTED, seen);
    seen = Atomics.load(words, REQUESTED);
    answerTask(JSON.parse(requestText.toString('utf8', 0, words[REQUEST_BYTES])) as InlineRequest);
    Atomics.store(words, ANSWERED, seen);
    Atomics.notify(words, ANSWERED);
    // A run that broke the module: this thread ends, and the owner starts another.
    if (sandbox.broken) process.exit(0);
  }
}

async function main(): Promise<void> {
  const data = workerData as InlineWorkerData;
  let sandbox: CodeSandbox;
  try {
    sandbox = await CodeSandbox.load({ memoryMb: data.memoryMb });
  } catch (error) {
    data.port.postMessage({ ready: false, message: error instanceof Error ? error.message : String(error) } satisfies InlineStart);
    return;
  }
  serve(sandbox, data, { task: { code: 'return input.a', input: { a: 1 }, timeoutMs: 1000, maxResultChars: 64 }, budgetMs: 1000 });
}

void main();
