import type { CodeOutcome, CodePort, CodeTask, ConsoleLine } from '../../ports';
import type { FlowTracer } from '../../runtime/flow-tracer';
import { diagnostics, request, respondBody, respondingFlow, runFlow } from '../../testing/flow-fixtures';

/** A sandbox stand-in: answers as told, at once or off the thread, and records the tasks. */
function fakeCode(answer: (task: CodeTask) => CodeOutcome, where: 'now' | 'later' = 'now'): CodePort & { tasks: CodeTask[] } {
  const tasks: CodeTask[] = [];
  return {
    tasks,
    runNow: (task) => {
      if (where === 'later') return null;
      tasks.push(task);
      return answer(task);
    },
    run: async (task) => {
      tasks.push(task);
      return answer(task);
    },
  };
}

const ok = (result: unknown, console: ConsoleLine[] = []): CodeOutcome => ({ ok: true, result, console });
const code = (config: Record<string, unknown> = {}) => ({ id: 'n4', type: 'run_code', config: { code: 'return input.a + input.b', ref: 'sum', ...config } as never });

describe('Run Code block: configuration', () => {
  it('reports a syntax error at Save with its line and column', () => {
    const found = diagnostics(respondingFlow([code({ code: 'const a = 1;\nconst b = ;\nreturn a' })], {}));
    expect(found).toEqual([
      expect.objectContaining({ severity: 'error', code: 'code_syntax_error', node_id: 'n4', field: 'code', line: 2, column: 11, message: 'Run Code (n4): SyntaxError: Unexpected token (line 2, column 11)' }),
    ]);
  });

  it('accepts a top-level return, and refuses import and export', () => {
    expect(diagnostics(respondingFlow([code({ code: 'if (input.x) return 1;\nreturn 2' })], {}))).toEqual([]);
    expect(diagnostics(respondingFlow([code({ code: "import fs from 'fs';\nreturn 1" })], {})).map((d) => d.code)).toEqual(['code_syntax_error']);
  });

  it('bounds the code, the inputs and the timeout', () => {
    const fields = (config: Record<string, unknown>) => diagnostics(respondingFlow([code(config)], {})).map((d) => `${d.code} ${d.field}`);
    expect(fields({ code: `return 1;${' '.repeat(64 * 1024)}` })).toEqual(['invalid_field code']);
    expect(fields({ inputs: Array.from({ length: 21 }, (_, i) => ({ name: `i${i}`, value: 1 })) })).toEqual(['too_many_inputs inputs']);
    expect(fields({ inputs: [{ name: 'a', value: 1 }, { name: 'a', value: 2 }] })).toEqual(['duplicate_input inputs.1.name']);
    expect(fields({ inputs: [{ name: '1a', value: 1 }] })).toEqual(['invalid_field inputs.0.name']);
    expect(fields({ timeout_ms: 0 })).toEqual(['invalid_field timeout_ms']);
    expect(fields({ timeout_ms: 1001 })).toEqual(['invalid_field timeout_ms']);
    expect(fields({ code: '' })).toEqual(['invalid_field code']);
  });
});

describe('Run Code block: running', () => {
  it('gives the code its inputs (JSON templates) and keeps what it returns under ref', async () => {
    const flow = respondingFlow([code({ inputs: [{ name: 'a', value: '{body.x}' }, { name: 'b', value: { n: 2 } }] })], { sum: '{result.sum}' });
    const sumPort = fakeCode(({ input }) => ok({ got: input }));
    await expect(respondBody(flow, { ports: { code: sumPort }, request: request({ body: { x: 40 } }) })).resolves.toEqual({ sum: { got: { a: 40, b: { n: 2 } } } });
    expect(sumPort.tasks).toEqual([{ code: 'return input.a + input.b', input: { a: 40, b: { n: 2 } }, timeoutMs: 100, maxResultChars: 1024 * 1024 }]);
  });

  it('runs off the thread when the sandbox cannot run it at once', async () => {
    const port = fakeCode(() => ok(7), 'later');
    await expect(respondBody(respondingFlow([code()], { v: '{result.sum}' }), { ports: { code: port } })).resolves.toEqual({ v: 7 });
    expect(port.tasks).toHaveLength(1);
  });

  it('never gives the code more time than the flow has left', async () => {
    const port = fakeCode(() => ok(1));
    await respondBody(respondingFlow([code({ timeout_ms: 1000 })], {}), { ports: { code: port }, options: { timeoutMs: 300 } });
    expect(port.tasks[0].timeoutMs).toBeLessThanOrEqual(300);
    expect(port.tasks[0].timeoutMs).toBeGreaterThan(0);
  });

  it('answers each failure with its code and a message naming the block', async () => {
    const failing = (outcome: CodeOutcome) => runFlow(respondingFlow([code()], {}), { ports: { code: fakeCode(() => outcome) } });
    await expect(failing({ ok: false, code: 'code_error', message: 'TypeError: boom (line 3)', console: [] })).resolves.toEqual({
      type: 'error',
      status: 500,
      code: 'flow_error',
      message: 'Run Code (n4): TypeError: boom (line 3)',
      node_id: 'n4',
    });
    await expect(failing({ ok: false, code: 'code_timeout', message: 'too long', console: [] })).resolves.toMatchObject({ status: 504, code: 'code_timeout', message: 'Run Code (n4): too long' });
    await expect(failing({ ok: false, code: 'code_memory_exceeded', message: 'too big', console: [] })).resolves.toMatchObject({ status: 422, code: 'code_memory_exceeded' });
    await expect(failing({ ok: false, code: 'value_too_large', message: 'huge', console: [] })).resolves.toMatchObject({ status: 422, code: 'value_too_large' });
  });

  it('counts the result against the run memory budget (FLOW_MAX_RUN_BYTES)', async () => {
    const port = fakeCode(() => ok('x'.repeat(2000)));
    const limits = { maxValueChars: 1 << 20, maxRegexPatternChars: 4096, maxRegexInputChars: 1 << 20, cpuBudgetMs: 1000, sliceMs: 5, maxRunBytes: 1000, maxCallDepth: 5, maxIterations: 10_000 };
    await expect(runFlow(respondingFlow([code()], {}), { ports: { code: port }, options: { limits } })).resolves.toMatchObject({ status: 422, code: 'run_memory_exceeded', node_id: 'n4' });
  });

  it('fails clearly where the process has no sandbox', async () => {
    await expect(runFlow(respondingFlow([code()], {}))).resolves.toMatchObject({ status: 500, code: 'flow_error', message: 'Run Code (n4): there is no JavaScript sandbox in this process' });
  });

  it('tells a tracer the console output of the block, also when it fails', async () => {
    const logged: unknown[] = [];
    const tracer: FlowTracer = { blockStarted: () => undefined, blockEnded: () => undefined, blockFailed: () => undefined, blockLogged: (lines) => logged.push(lines) };
    const lines: ConsoleLine[] = [{ level: 'log', text: 'hello' }];
    await runFlow(respondingFlow([code()], {}), { ports: { code: fakeCode(() => ok(1, lines)) }, options: { tracer } });
    await runFlow(respondingFlow([code()], {}), { ports: { code: fakeCode(() => ({ ok: false, code: 'code_error', message: 'x', console: lines }), 'later') }, options: { tracer } });
    expect(logged).toEqual([lines, lines]);
  });
});
