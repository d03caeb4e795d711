import type { CodeOutcome, CodeTask, ConsoleLine } from '@flowgate/flow-engine';
import { performance } from 'node:perf_hooks';
import { newQuickJSWASMModuleFromVariant, newVariant, Scope, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import { SANDBOX_PRELUDE } from './sandbox-prelude';

const MIB = 1024 * 1024;
const WASM_PAGE_BYTES = 64 * 1024;
/** The module's own memory (its code's data, the C stack, allocator state) above what runs may use. */
const MODULE_HEADROOM_BYTES = 16 * MIB;
/** What the QuickJS build asks for at start. */
const INITIAL_BYTES = 16 * MIB;
/**
 * QuickJS's own stack limit. Its frames run on the host thread's native stack too, and the
 * host's limit must never be reached first (that leaves the module broken): 64 KiB is ~370
 * nested calls of plain recursion, and a 100,000-deep array still fails cleanly in the sandbox
 * (code-sandbox.spec.ts).
 */
const STACK_BYTES = 64 * 1024;
/**
 * After a failure, the time given to describe it and read the console lines (bounded work,
 * unless the code's own getters loop): at most the run's own budget, so a run on a gateway's
 * event loop holds it no longer than twice its millisecond.
 */
const REPORT_GRACE_MS = 50;
/** Lines of QuickJS's stack above the user's code: `Function('input', code)` adds two. */
const FUNCTION_HEADER_LINES = 2;

/** The global of every JavaScript engine this runs on (Node 20 and 22); the project's TypeScript libs do not declare it. */
declare const WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => object };

/**
 * The release build of QuickJS (quickjs-emscripten's default), loaded with `require`: the
 * package's own variant loads its module with a dynamic `import()`, which Jest's CommonJS
 * runtime refuses.
 */
const RELEASE_SYNC: QuickJSSyncVariant = {
  type: 'sync',
  importFFI: async () => (require('@jitl/quickjs-wasmfile-release-sync/ffi') as { QuickJSFFI: never }).QuickJSFFI,
  importModuleLoader: async () => require('@jitl/quickjs-wasmfile-release-sync/emscripten-module') as never,
};

export interface CodeSandboxOptions {
  /** CODE_MEMORY_MB: what one run may allocate. */
  memoryMb: number;
}

/** The context of one QuickJS runtime, hardened by the prelude, with the prelude's functions. */
interface Realm {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  api: QuickJSHandle;
}

/**
 * One QuickJS WebAssembly module (a separate JavaScript engine with no host functions at
 * all), on one thread, with one hardened context that runs the code of every run in turn:
 * the prelude freezes the built-ins and fixes the global object's properties, and after each
 * run the globals the code added are deleted (sandbox-prelude.ts), so nothing carries over
 * from one run to the next. A run that timed out, ran out of memory or left something that
 * cannot be deleted gets the context replaced (~0.6 ms). The module's linear memory is capped
 * at CODE_MEMORY_MB plus a fixed headroom, so that memory is bounded even where QuickJS's own
 * accounting misses an allocation (large strings and ArrayBuffers, measured:
 * docs/decisions.md), and the process holds at most that much for the sandbox.
 */
export class CodeSandbox {
  /** Set when the module failed in a way that may leave it unusable: the owner loads another. */
  broken = false;
  private realm: Realm | null = null;
  private deadline = Infinity;
  private interrupted = false;

  private constructor(
    private readonly module: QuickJSWASMModule,
    private readonly memoryBytes: number,
  ) {}

  static async load(options: CodeSandboxOptions): Promise<CodeSandbox> {
    const memoryBytes = options.memoryMb * MIB;
    const maximum = Math.ceil(Math.max(INITIAL_BYTES, memoryBytes + MODULE_HEADROOM_BYTES) / WASM_PAGE_BYTES);
    const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_BYTES / WASM_PAGE_BYTES, maximum });
    const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: wasmMemory as never }));
    const sandbox = new CodeSandbox(module, memoryBytes);
    // The first run compiles the module's hot paths (hundreds of ms on a busy machine): done here, not in a request's time.
    sandbox.run({ code: 'return [input].map(String).join()', input: { warm: true }, timeoutMs: 10_000, maxResultChars: 1024 });
    return sandbox;
  }

  /** Runs the task's code for at most `cpuMs` of this thread's time (the task's timeout by default). */
  run(task: CodeTask, cpuMs: number = task.timeoutMs): CodeOutcome {
    let keep = false;
    try {
      const realm = (this.realm ??= this.newRealm());
      const { context } = realm;
      return Scope.withScope((scope) => {
        const call = (fn: string, ...args: QuickJSHandle[]) => scope.manage(context.callFunction(scope.manage(context.getProp(realm.api, fn)), context.undefined, args));
        this.deadline = performance.now() + cpuMs;
        this.interrupted = false;
        const ran = call('run', scope.manage(context.newString(task.code)), scope.manage(context.newString(JSON.stringify(task.input))), scope.manage(context.newNumber(task.maxResultChars)));
        const report = ran.error === undefined ? readReport(context, ran.value) : null;
        // The run added no global (the common case): nothing to clean, a call into the sandbox saved.
        if (report?.clean === true) {
          keep = true;
          return settledOutcome(report, task.maxResultChars);
        }
        const outcome = report ? settledOutcome(report, task.maxResultChars) : this.failure(realm, ran.error!, call, cpuMs, task.timeoutMs);
        // A run that stopped half-way (time, memory) may leave garbage or a half-made state: a new context.
        if (outcome.ok || outcome.code === 'code_error' || outcome.code === 'value_too_large') {
          this.deadline = performance.now() + REPORT_GRACE_MS;
          const cleaned = call('clean');
          keep = !cleaned.error && context.typeof(cleaned.value) === 'boolean' && context.dump(cleaned.value) === true;
        }
        return outcome;
      });
    } catch (error) {
      // The host's own stack, or the module's memory, ran out inside QuickJS: the module may be left half-way.
      this.broken = true;
      this.realm = null;
      if (error instanceof RangeError) return { ok: false, code: 'code_error', message: 'InternalError: stack overflow', console: [] };
      // An emscripten abort: the module could not grow its memory (or its allocator state broke).
      if (error instanceof Error && /memory|Aborted/i.test(error.message)) return memoryExceeded([]);
      return { ok: false, code: 'code_error', message: 'the sandbox failed unexpectedly; try again', console: [] };
    } finally {
      this.deadline = Infinity;
      if (!keep && !this.broken) this.disposeRealm();
    }
  }

  private failure(realm: Realm, error: QuickJSHandle, call: (fn: string, ...args: QuickJSHandle[]) => { value?: QuickJSHandle; error?: QuickJSHandle }, cpuMs: number, timeoutMs: number): CodeOutcome {
    const timedOut = this.interrupted;
    this.deadline = performance.now() + Math.min(REPORT_GRACE_MS, cpuMs);
    this.interrupted = false;
    // Out of memory, QuickJS throws null when it has no memory left to make an error; by the time
    // the host looks, the code's objects are freed. So a thrown null reads as out of memory.
    const outOfMemory = realm.context.typeof(error) === 'object' && realm.context.dump(error) === null;
    const described = call('describe', error);
    // Describing the error runs the code's getters too: one that never ends is the code's timeout.
    return describeFailure(realm.context, described, timedOut || (described.error !== undefined && this.interrupted), timeoutMs, outOfMemory);
  }

  private newRealm(): Realm {
    const runtime = this.module.newRuntime();
    try {
      runtime.setMemoryLimit(this.memoryBytes);
      runtime.setMaxStackSize(STACK_BYTES);
      runtime.setInterruptHandler(() => (this.interrupted = performance.now() > this.deadline));
      const context = runtime.newContext();
      // The prelude is ours, short and without loops over anything the code gives: never interrupted.
      this.deadline = Infinity;
      const api = context.unwrapResult(context.evalCode(SANDBOX_PRELUDE));
      return { runtime, context, api };
    } catch (error) {
      runtime.dispose();
      throw error;
    }
  }

  private disposeRealm(): void {
    const realm = this.realm;
    this.realm = null;
    if (realm === null) return;
    try {
      realm.api.dispose();
      realm.context.dispose();
      realm.runtime.dispose();
    } catch {
      // Leaked handles of a run cut short: the module may be inconsistent; the owner loads another.
      this.broken = true;
    }
  }
}

interface Report {
  console: ConsoleLine[];
  dropped: number;
  [field: string]: unknown;
}

/** The mark before a result's JSON when there is nothing else to report; the second says the run added globals. */
const RESULT_UNTOUCHED = 1;
const RESULT_TOUCHED = 2;

/** What the prelude returned, checked: the code can change the built-ins the prelude uses. */
function readReport(context: QuickJSContext, handle: QuickJSHandle): Report {
  const text = context.typeof(handle) === 'string' ? context.getString(handle) : '';
  const mark = text.charCodeAt(0);
  if (mark === RESULT_UNTOUCHED || mark === RESULT_TOUCHED) return { ok: true, json: text.slice(1), clean: mark === RESULT_UNTOUCHED, console: [], dropped: 0 };
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    report = null;
  }
  if (report === null || typeof report !== 'object') return { console: [], dropped: 0, unreadable: true };
  const fields = report as Record<string, unknown>;
  const lines = Array.isArray(fields.console) ? fields.console.filter(isConsoleLine).slice(0, 100) : [];
  const dropped = typeof fields.dropped === 'number' ? fields.dropped : 0;
  if (dropped > 0) lines.push({ level: 'info', text: `(console output past 100 lines or 16 KiB was cut: ${dropped} more)` });
  return { ...fields, console: lines, dropped };
}

const isConsoleLine = (line: unknown): line is ConsoleLine =>
  line !== null &&
  typeof line === 'object' &&
  ['log', 'info', 'warn', 'error'].includes((line as ConsoleLine).level) &&
  typeof (line as ConsoleLine).text === 'string';

function settledOutcome(report: Report, maxChars: number): CodeOutcome {
  if (report.ok === true && typeof report.json === 'string') return { ok: true, result: JSON.parse(report.json) as unknown, console: report.console };
  if (typeof report.tooLarge === 'number') {
    return { ok: false, code: 'value_too_large', message: `the result would be ${report.tooLarge.toLocaleString('en-US')} characters of JSON; the limit is ${maxChars.toLocaleString('en-US')}`, console: report.console };
  }
  if (typeof report.message === 'string') return { ok: false, code: 'code_error', message: report.message, console: report.console };
  return { ok: false, code: 'code_error', message: 'the result could not be read (the code changed the built-ins Run Code uses)', console: report.console };
}

function describeFailure(context: QuickJSContext, described: { value?: QuickJSHandle; error?: QuickJSHandle }, timedOut: boolean, timeoutMs: number, outOfMemory: boolean): CodeOutcome {
  const report = described.value ? readReport(context, described.value) : { console: [], dropped: 0 };
  if (timedOut) return { ok: false, code: 'code_timeout', message: `the code ran longer than its timeout (${timeoutMs} ms) and was stopped`, console: report.console };
  const name = typeof report.name === 'string' ? report.name : 'Error';
  const message = typeof report.message === 'string' ? report.message : 'the code failed';
  if (outOfMemory || (name === 'InternalError' && message === 'out of memory') || described.error) return memoryExceeded(report.console);
  const line = typeof report.stack === 'string' ? userLine(report.stack) : null;
  return { ok: false, code: 'code_error', message: `${name}: ${message}${line === null ? '' : ` (line ${line})`}`, console: report.console };
}

const memoryExceeded = (console: ConsoleLine[]): CodeOutcome => ({ ok: false, code: 'code_memory_exceeded', message: 'the code used more memory than a run may (CODE_MEMORY_MB) and was stopped', console });

/** The line of the user's code in QuickJS's stack (`at anonymous (<input>:5:9)`, or `at <input>:4:9` for a syntax error). */
function userLine(stack: string): number | null {
  const match = /<input>:(\d+)(?::\d+)?/.exec(stack);
  if (match === null) return null;
  const line = Number(match[1]) - FUNCTION_HEADER_LINES;
  return line >= 1 ? line : null;
}
