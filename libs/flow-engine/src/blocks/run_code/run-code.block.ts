import { z } from 'zod';
import { setOwn } from '../../json';
import type { CodeOutcome, CodeTask } from '../../ports';
import type { FlowRun } from '../../runtime/flow-run';
import { BlockFailure, RunInterrupted, ValueTooLarge } from '../../runtime/run-errors';
import { referenceNameSchema } from '../../schema/names';
import { defineBlock, valueSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { portFailure } from '../common/port-failure';
import { syntaxProblem } from './code-syntax';

export const MAX_CODE_BYTES = 64 * 1024;
export const MAX_CODE_INPUTS = 20;
export const DEFAULT_CODE_TIMEOUT_MS = 100;
export const MAX_CODE_TIMEOUT_MS = 1000;

const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    code: z
      .string()
      .min(1)
      .refine((code) => code.length <= MAX_CODE_BYTES && utf8Length(code) <= MAX_CODE_BYTES, { error: 'may be at most 64 KiB' })
      .meta({ title: 'Code', code: 'javascript' }),
    inputs: z
      .array(z.object({ name: referenceNameSchema.meta({ title: 'Input name' }), value: kit.template(valueSource('Input value')) }))
      .max(MAX_CODE_INPUTS)
      .default([])
      .meta({ title: 'Inputs', item: 'input' }),
    ref: refField(),
    timeout_ms: z.number().int().min(1).max(MAX_CODE_TIMEOUT_MS).default(DEFAULT_CODE_TIMEOUT_MS).meta({ title: 'Timeout (ms)' }),
  });
type RunCodeConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const runCodeBlock = defineBlock<RunCodeConfig>({
  type: 'run_code',
  label: 'Run Code',
  category: 'logic',
  description: 'Runs JavaScript in a sandbox: input.NAME reads an input, what the code returns is {result.REF}.',
  config,
  flow: 'next',
  // A failure of its own (the code threw, ran out of time or memory) may take the `error` handle.
  canFail: true,
  outputs: ({ ref }) => [{ name: ref, fields: null, readableByName: false }],
  check: ({ code, inputs }, diagnostics) => {
    const problem = syntaxProblem(code);
    if (problem !== null) {
      diagnostics.error('code_syntax_error', 'code', `SyntaxError: ${problem.reason} (line ${problem.line}, column ${problem.column})`, { line: problem.line, column: problem.column });
    }
    const seen = new Set<string>();
    inputs.forEach(({ name }, index) => {
      if (seen.has(name)) diagnostics.error('duplicate_input', `inputs.${index}.name`, `the input name "${name}" is used twice`);
      seen.add(name);
    });
  },
  prepare: (config, context) => {
    const slot = context.variable(config.ref);
    const inputs = config.inputs.map(({ name, value }) => ({ name, resolve: context.value(value) }));
    return (run) => {
      const port = run.ports.code;
      if (port === undefined) throw new BlockFailure('there is no JavaScript sandbox in this process');
      const input: Record<string, unknown> = {};
      for (const { name, resolve } of inputs) setOwn(input, name, resolve(run));
      const task: CodeTask = { code: config.code, input, timeoutMs: timeoutWithin(run, config.timeout_ms), maxResultChars: run.limits.maxValueChars };
      const now = port.runNow?.(task);
      if (now) return finish(run, slot, now);
      return port.run(task, run.signal).then(
        (outcome) => finish(run, slot, outcome),
        (error: unknown) => {
          throw portFailure(run, error, 'running the code');
        },
      );
    };
  },
});

/** The block's CPU limit, never past the flow's deadline. */
function timeoutWithin(run: FlowRun, timeoutMs: number): number {
  const left = Math.floor(run.deadlineAt - Date.now());
  if (left <= 0) throw new RunInterrupted('deadline');
  return Math.min(timeoutMs, left);
}

function finish(run: FlowRun, slot: number, outcome: CodeOutcome): void {
  run.log(outcome.console);
  if (outcome.ok) return run.keep(slot, outcome.result);
  switch (outcome.code) {
    case 'code_timeout':
      throw new BlockFailure(outcome.message, 'code_timeout', 504, true);
    case 'code_memory_exceeded':
      throw new BlockFailure(outcome.message, 'code_memory_exceeded', 422, true);
    case 'value_too_large':
      throw new ValueTooLarge(outcome.message);
    case 'code_error':
      throw new BlockFailure(outcome.message, 'code_error');
  }
}
