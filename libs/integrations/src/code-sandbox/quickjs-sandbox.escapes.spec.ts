import type { CodeOutcome } from '@flowgate/flow-engine';
import { CodeSandbox } from './quickjs-sandbox';

/**
 * Code written to reach the host. Each attempt must answer safely — a result or a code
 * failure — with nothing of the host in the answer: no host object, path, module or variable.
 */
let sandbox: CodeSandbox;
// Compiling the WebAssembly module can take seconds on a busy machine.
beforeAll(async () => {
  sandbox = await CodeSandbox.load({ memoryMb: 32 });
}, 60_000);

const run = (code: string, timeoutMs = 10_000): CodeOutcome => sandbox.run({ code, input: { a: 1 }, timeoutMs, maxResultChars: 1024 * 1024 });

/** Words that only the host (Node, this repository, this machine) could put in an answer. */
const HOST_WORDS = /node_modules|\/work\/|\/usr\/|\/tmp\/|quickjs-sandbox|emscripten|Buffer|child_process|worker_threads|v8|HOME|PATH=/i;

function expectNothingOfTheHost(outcome: CodeOutcome): void {
  expect(JSON.stringify(outcome)).not.toMatch(HOST_WORDS);
}

describe('Run Code sandbox: escape attempts', () => {
  it('has no require, import, process, module, timers, network, files, SharedArrayBuffer, Atomics or WebAssembly', () => {
    const names = ['require', 'process', 'module', 'exports', 'Buffer', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'fetch', 'XMLHttpRequest', 'WebSocket', 'SharedArrayBuffer', 'Atomics', 'WebAssembly', 'std', 'os', 'Deno', 'Bun'];
    const outcome = run(`return ${JSON.stringify(names)}.filter((name) => typeof globalThis[name] !== 'undefined')`);
    expect(outcome).toMatchObject({ ok: true, result: [] });
  });

  it('finds only the sandbox through Function("return this")(), constructor.constructor and eval', () => {
    for (const code of [
      'return typeof Function("return this")().process',
      'return typeof input.constructor.constructor("return this")().process',
      'return typeof (() => {}).constructor("return globalThis")().require',
      'return typeof eval("this").process',
      'return typeof console.log.constructor("return this")().process',
    ]) {
      const outcome = run(code);
      expect(outcome).toMatchObject({ ok: true, result: 'undefined' });
    }
    const named = run('return input.constructor.constructor("return process")()');
    expect(named).toMatchObject({ ok: false, code: 'code_error', message: expect.stringMatching(/^ReferenceError: .*process/) });
    expectNothingOfTheHost(named);
  });

  it('walks prototypes to the sandbox’s own Object and no further', () => {
    const outcome = run('const chain = []; let p = input; while (p) { chain.push(Object.getOwnPropertyNames(p).length > 5 ? "Object.prototype" : "input"); p = Object.getPrototypeOf(p) } return { chain, sameFunction: input.constructor.constructor === Function }');
    expect(outcome).toMatchObject({ ok: true, result: { chain: ['input', 'Object.prototype'], sameFunction: true } });
  });

  it('answers import() as a Promise it refuses, having loaded nothing', () => {
    const outcome = run('const loading = import("fs"); loading.then((fs) => console.log(Object.keys(fs))); return loading');
    expect(outcome).toEqual({ ok: false, code: 'code_error', message: 'the result is not JSON: result is a Promise: Run Code runs synchronously (no await, no timers)', console: [] });
    expect(run('await import("fs")')).toMatchObject({ ok: false, code: 'code_error', message: expect.stringMatching(/^SyntaxError/) });
  });

  it('keeps Error.prepareStackTrace and stack tricks inside: only text comes out', () => {
    const outcome = run('Error.prepareStackTrace = (error, frames) => frames.map((f) => typeof f.getThis === "function" ? f.getThis() : f); Error.captureStackTrace?.(input); throw new Error("look: " + String(new Error("x").stack))');
    expect(outcome).toMatchObject({ ok: false, code: 'code_error', message: expect.stringMatching(/^Error: look:/) });
    expectNothingOfTheHost(outcome);
  });

  it('runs getters, toJSON and Proxy traps of the result inside the sandbox, and gives the host plain data', () => {
    const getter = run('return { get x() { return typeof process } }');
    expect(getter).toMatchObject({ ok: true, result: { x: 'undefined' } });
    if (getter.ok) expect(Object.getOwnPropertyDescriptor(getter.result, 'x')?.get).toBeUndefined();
    expect(run('return new Proxy({}, { ownKeys() { throw new Error("trap ran") } })')).toMatchObject({ ok: false, message: 'Error: trap ran (line 1)' });
    expect(run('return { toJSON() { while (true) {} } }', 50)).toMatchObject({ ok: false, code: 'code_timeout' });
    expect(run('const e = new Error("x"); Object.defineProperty(e, "message", { get() { while (true) {} } }); throw e', 50)).toMatchObject({ ok: false, code: 'code_timeout' });
  });

  it('cannot forge its own report by replacing the built-ins the prelude uses', () => {
    const outcome = run('JSON.stringify = () => \'{"ok":true,"json":"\\"forged\\""}\'; Object.keys = () => ["forged"]; Array.isArray = () => true; return { real: 1 }');
    expect(outcome).toMatchObject({ ok: true, result: { real: 1 } });
    // The built-ins are frozen: replacing what every object inherits does nothing.
    expect(run('Object.prototype.toJSON = function () { return "everything"; }; return { a: 1 }')).toMatchObject({ ok: true, result: { a: 1 } });
  });

  it('leaves nothing for the next run: built-ins frozen, added globals deleted, a context that cannot be cleaned replaced', () => {
    expect(run('globalThis.leak = "project A secret"; implicit = 1; Object.prototype.polluted = 1; JSON.parse = null; return 1')).toMatchObject({ ok: true });
    expect(run('Array.prototype.push = null')).toMatchObject({ ok: false, message: 'TypeError: Cannot assign to push: the built-ins are frozen (line 1)' });
    expect(run('return [typeof globalThis.leak, typeof implicit, typeof ({}).polluted, [1].push(2), JSON.parse("3")]')).toMatchObject({ ok: true, result: ['undefined', 'undefined', 'undefined', 2, 3] });
    expect(run('Object.defineProperty(globalThis, "stuck", { value: "secret", configurable: false }); Object.preventExtensions(globalThis); return 1')).toMatchObject({ ok: true });
    expect(run('return [typeof stuck, Object.isExtensible(globalThis)]')).toMatchObject({ ok: true, result: ['undefined', true] });
    // The baseline cannot be deleted, so a run cannot trade one of its globals for one of its own.
    expect(run('delete globalThis.Math; swapped = "secret"; return typeof Math')).toMatchObject({ ok: true, result: 'object' });
    expect(run('return typeof swapped')).toMatchObject({ ok: true, result: 'undefined' });
    const symbol = run('globalThis[Symbol.iterator] = "x"; globalThis[Symbol("toStringTag")] = "y"; return Object.getOwnPropertySymbols(globalThis).length');
    expect(run('return Object.getOwnPropertySymbols(globalThis).length')).toMatchObject({ ok: true, result: symbol.ok ? (symbol.result as number) - 2 : -1 });
  });

  it('still lets code assign what it inherits (the override mistake) and use sloppy globals within a run', () => {
    const outcome = run('class NotFound extends Error { constructor(m) { super(m); this.name = "NotFound" } }\nconst o = {}; o.toString = () => "mine";\ntotal = 2;\nreturn [new NotFound("x").name, String(o), total]');
    expect(outcome).toMatchObject({ ok: true, result: ['NotFound', 'mine', 2] });
    expect(run('throw new (class Oops extends Error { constructor() { super("bad"); this.name = "Oops" } })()')).toMatchObject({ ok: false, message: 'Oops: bad (line 1)' });
  });

  it('keeps console arguments with getters and cycles inside the sandbox', () => {
    const outcome = run('const o = { get g() { return "from the getter" } }; const c = {}; c.c = c; console.log(o, c, Symbol("s"), 10n); return 1');
    expect(outcome).toMatchObject({ ok: true, console: [{ level: 'log', text: '{"g":"from the getter"} [object Object] Symbol(s) 10' }] });
  });
});
