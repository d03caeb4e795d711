import type { CodeOutcome, CodeTask } from '@flowgate/flow-engine';
import { createInlineCode, ThreadCodeSandbox, type InlineCode } from './inline-code-sandbox';

jest.setTimeout(60_000);

const task = (code: string): CodeTask => ({ code, input: { a: 40, b: 2 }, timeoutMs: 1000, maxResultChars: 1024 });
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The first outcome `runNow` gives for short code: it may say "the pool" while its thread starts or is busy. */
async function answeredAtOnce(sandbox: InlineCode, code: string): Promise<CodeOutcome | null> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const outcome = sandbox.runNow(task(code));
    if (outcome !== null) return outcome;
    await pause(25);
  }
  return null;
}

describe('the inline sandbox on a main thread', () => {
  let sandbox: InlineCode;

  beforeAll(async () => {
    sandbox = createInlineCode(32);
    expect(await sandbox.loaded()).toBe(true);
  });

  it('runs on a thread of its own', () => {
    expect(sandbox).toBeInstanceOf(ThreadCodeSandbox);
  });

  it('answers short code at once, as the code returned it', async () => {
    expect(await answeredAtOnce(sandbox, 'return input.a + input.b')).toEqual({ ok: true, result: 42, console: [] });
  });

  it('leaves code stuck inside a built-in to the pool, and answers short code again afterwards', async () => {
    await answeredAtOnce(sandbox, 'return 1');
    // QuickJS never checks the time inside indexOf: seconds on whichever thread runs it.
    expect(sandbox.runNow(task('return new Array(1e8).indexOf(1)'))).toBeNull();
    expect(await answeredAtOnce(sandbox, 'return input.b')).toEqual({ ok: true, result: 2, console: [] });
  });

  it('says that code needing more than its millisecond needs the pool', async () => {
    await answeredAtOnce(sandbox, 'return 1');
    expect(sandbox.runNow(task('for (;;) {}'))).toBeNull();
  });
});
