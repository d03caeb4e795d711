import type { CodeOutcome, CodeTask } from '@flowgate/flow-engine';
import { CodeSandbox } from './quickjs-sandbox';

let sandbox: CodeSandbox;
// Compiling the WebAssembly module can take seconds on a busy machine.
beforeAll(async () => {
  sandbox = await CodeSandbox.load({ memoryMb: 32 });
}, 60_000);

// A generous CPU limit wherever the code is meant to finish: a slow machine must not turn a result into code_timeout.
const run = (code: string, input: Record<string, unknown> = {}, task: Partial<CodeTask> = {}): CodeOutcome =>
  sandbox.run({ code, input, timeoutMs: 10_000, maxResultChars: 1024 * 1024, ...task });

describe('Run Code sandbox: results', () => {
  it('returns what the code returns, with input in scope', () => {
    expect(run('return input.a + input.b', { a: 1, b: 2 })).toEqual({ ok: true, result: 3, console: [] });
    expect(run('return input.orders.filter((o) => o.total > 10).map((o) => o.id)', { orders: [{ id: 'a', total: 5 }, { id: 'b', total: 50 }] })).toMatchObject({ ok: true, result: ['b'] });
  });

  it('gives null for undefined and keeps JSON semantics inside values', () => {
    expect(run('const x = 1;')).toMatchObject({ ok: true, result: null });
    expect(run('return { a: undefined, b: [undefined, NaN], d: new Date(0) }')).toMatchObject({ ok: true, result: { b: [null, null], d: '1970-01-01T00:00:00.000Z' } });
  });

  it('refuses a function, symbol, BigInt or cycle in the result, naming the path', () => {
    expect(run('return { items: [1, () => 2] }')).toMatchObject({ ok: false, code: 'code_error', message: 'the result is not JSON: result.items.1 is a function, which JSON cannot hold' });
    expect(run('return { s: Symbol("x") }')).toMatchObject({ ok: false, message: expect.stringContaining('result.s is a symbol') });
    expect(run('return { n: 10n }')).toMatchObject({ ok: false, message: expect.stringContaining('result.n is a BigInt') });
    expect(run('const a = { b: {} }; a.b.c = a; return a')).toMatchObject({ ok: false, message: expect.stringContaining('result.b.c refers back to the result (a cycle)') });
  });

  it('keeps a key named __proto__ as data', () => {
    expect(run('return JSON.parse(\'{"__proto__": {"x": 1}}\')')).toMatchObject({ ok: true, result: JSON.parse('{"__proto__": {"x": 1}}') });
  });
});

describe('Run Code sandbox: console and errors', () => {
  it('collects console lines with their level', () => {
    expect(run('console.log("a", 1, {b: 2}); console.warn("w"); console.error("e"); console.info("i"); return 1').console).toEqual([
      { level: 'log', text: 'a 1 {"b":2}' },
      { level: 'warn', text: 'w' },
      { level: 'error', text: 'e' },
      { level: 'info', text: 'i' },
    ]);
  });

  it('keeps at most 100 lines and 16 KiB, and says what was cut', () => {
    const many = run('for (let i = 0; i < 150; i++) console.log(i)').console;
    expect(many).toHaveLength(101);
    expect(many[100]).toEqual({ level: 'info', text: '(console output past 100 lines or 16 KiB was cut: 50 more)' });
    const long = run('console.log("x".repeat(10000)); console.log("y".repeat(10000)); console.log("z")').console;
    expect(long.slice(0, 2).map((line) => line.text.length)).toEqual([10000, 16384 - 10000]);
  });

  it('reports a thrown error with its line, and the console written before it', () => {
    expect(run('console.log("before");\nconst x = null;\nreturn x.y')).toEqual({ ok: false, code: 'code_error', message: "TypeError: cannot read property 'y' of null (line 3)", console: [{ level: 'log', text: 'before' }] });
    expect(run('throw "plain text"')).toMatchObject({ code: 'code_error', message: 'Error: threw plain text' });
  });

  it('reports a syntax error with its line', () => {
    expect(run('let a = 1;\nlet b = ;')).toMatchObject({ code: 'code_error', message: expect.stringMatching(/^SyntaxError: .+ \(line 2\)$/) });
  });

  it('stops deep recursion cleanly', () => {
    expect(run('function f() { return f() }\nreturn f()')).toMatchObject({ code: 'code_error', message: expect.stringContaining('stack overflow') });
    expect(run('let a = []; for (let i = 0; i < 100000; i++) a = [a]; return JSON.stringify(a).length')).toMatchObject({ code: 'code_error', message: expect.stringContaining('stack overflow') });
    expect(run('return 1')).toMatchObject({ ok: true, result: 1 });
  });
});

describe('Run Code sandbox: limits', () => {
  it('stops an endless loop and a catastrophic regular expression (code_timeout)', () => {
    expect(run('console.log("started"); while (true) {}', {}, { timeoutMs: 50 })).toEqual({
      ok: false,
      code: 'code_timeout',
      message: 'the code ran longer than its timeout (50 ms) and was stopped',
      console: [{ level: 'log', text: 'started' }],
    });
    expect(run('return /(a+)+$/.test("a".repeat(40) + "b")', {}, { timeoutMs: 50 })).toMatchObject({ code: 'code_timeout' });
    expect(run('try { while (true) {} } catch (e) { return "caught" }', {}, { timeoutMs: 20 })).toMatchObject({ code: 'code_timeout' });
  });

  it('stops allocation bombs at the memory limit (code_memory_exceeded) and runs on afterwards', () => {
    for (const bomb of [
      'const a = []; for (;;) a.push({ n: a.length, l: [1, 2, 3] })',
      'const a = []; for (;;) a.push("x".repeat(1000) + a.length)',
      'const a = []; for (;;) a.push(new ArrayBuffer(1e6))',
      'return "x".repeat(1e8).length',
    ]) {
      expect(run(bomb)).toMatchObject({ ok: false, code: 'code_memory_exceeded' });
      expect(run('return 2')).toMatchObject({ ok: true, result: 2 });
    }
  });

  it('refuses a result over the value limit before it leaves the sandbox', () => {
    expect(run('return "x".repeat(2000)', {}, { maxResultChars: 1000 })).toMatchObject({ code: 'value_too_large', message: 'the result would be 2,002 characters of JSON; the limit is 1,000' });
  });
});
