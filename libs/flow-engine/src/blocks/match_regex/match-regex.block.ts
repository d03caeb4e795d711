import { z } from 'zod';
import { parseTemplate } from '../../template/template-parser';
import type { RegexOutcome, RegexPort, RegexTask } from '../../ports';
import type { FlowRun } from '../../runtime/flow-run';
import { BlockFailure, ValueTooLarge } from '../../runtime/run-errors';
import { formatCount } from '../../runtime/value-size';
import { defineBlock, textSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { portFailure } from '../common/port-failure';
import { compilePattern, MATCH_RESULT_FIELDS, REGEX_FLAGS_PATTERN, surelyTooLarge, type CompiledPattern } from './linear-regex';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    input: kit.template(textSource('Input Text')),
    pattern: kit.template(textSource('Pattern')),
    flags: z
      .string()
      .regex(REGEX_FLAGS_PATTERN, { error: 'may contain only i, m, s, g and u' })
      .refine((flags) => new Set(flags).size === flags.length, { error: 'may name each flag once' })
      .default('')
      .meta({ title: 'Flags' }),
    ref: refField(),
  });
type MatchRegexConfig = z.output<ReturnType<typeof config<'compiled'>>>;

/** Patterns built from variables are compiled at run time; the last few are kept. */
const DYNAMIC_PATTERN_CACHE_SIZE = 32;

const staticPattern = ({ pattern, flags }: MatchRegexConfig): CompiledPattern | null =>
  pattern.kind === 'literal' && typeof pattern.value === 'string' ? compilePattern(pattern.value, flags) : null;

export const matchRegexBlock = defineBlock<MatchRegexConfig>({
  type: 'match_regex',
  label: 'Match Regex',
  category: 'text',
  description: 'Finds every match of a pattern: {result.REF.matches}, .captures, .isMatch and named groups.',
  config,
  flow: 'next',
  outputs: (config) => {
    const compiled = staticPattern(config);
    const groups = compiled?.ok ? compiled.pattern.groupNames : null;
    return [{ name: config.ref, fields: groups && [...MATCH_RESULT_FIELDS, ...groups], readableByName: false }];
  },
  // A static pattern is checked at Deploy; one built at run time may be refused then.
  canFail: ({ pattern }: { pattern: unknown }) => {
    // The catalogue passes the editor's config (text), the compiler the parsed one.
    if (typeof pattern === 'string') return parseTemplate(pattern).kind !== 'literal';
    return typeof pattern === 'object' && pattern !== null && (pattern as { kind?: unknown }).kind !== 'literal';
  },
  check: (config, diagnostics) => {
    const compiled = staticPattern(config);
    if (compiled === null) return;
    if (!compiled.ok) {
      if (compiled.tooLarge) diagnostics.error('regex_too_large', 'pattern', `Pattern is too large to run: ${compiled.reason}`);
      else diagnostics.error('invalid_regex', 'pattern', `Pattern is not accepted by the linear-time regex engine: ${compiled.reason}`);
      return;
    }
    for (const name of compiled.pattern.groupNames) {
      if ((MATCH_RESULT_FIELDS as readonly string[]).includes(name)) {
        diagnostics.error('reserved_group_name', 'pattern', `the group name "${name}" is taken by the result field {result.${config.ref}.${name}}`);
      }
    }
  },
  prepare: (config, context) => {
    const slot = context.variable(config.ref);
    const input = context.text(config.input);
    const fixed = staticPattern(config);
    if (fixed !== null && !fixed.ok) throw new Error(`Pattern of ${context.nodeId} does not compile: ${fixed.reason}`);
    const fixedText = config.pattern.kind === 'literal' ? String(config.pattern.value) : '';
    const patternText = fixed !== null ? () => fixedText : context.text(config.pattern);
    const cache = new PatternCache(config.flags);
    if (fixed !== null) cache.keep(fixedText, fixed);
    return (run) => {
      const text = input(run);
      const source = patternText(run);
      checkSizes(run, source, text);
      const port = run.ports.regex;
      let compiled = cache.peek(source);
      if (compiled === undefined) {
        // A pattern over the limit by its text alone is refused here, without a thread's time.
        if (port !== undefined && costlyToCompile(source) && !surelyTooLarge(source)) return offload(run, port, slot, { pattern: source, flags: config.flags, input: text });
        compiled = cache.compile(source);
      }
      if (!compiled.ok) throw new BlockFailure(refusal(compiled));
      // The cost is known before the match runs: above the budget it runs on another thread.
      const cost = compiled.pattern.cost(text.length);
      if (port !== undefined && cost > INLINE_COST) return offload(run, port, slot, { pattern: source, flags: config.flags, input: text });
      run.countWork(cost);
      run.keep(slot, compiled.pattern.matchAll(text, run.limits.maxValueChars));
    };
  },
});

/**
 * A match whose estimated cost (`LinearPattern.cost`, units of ~30 ns at worst) is above this
 * runs on another thread when the process offers one: at most ~4 ms on the event loop.
 */
const INLINE_COST = 131_072;
/** Compiling takes long for long patterns and for counted repetitions (12 ms measured for `.{0,1000}.{0,1000}z`). */
const INLINE_COMPILE_CHARS = 256;

/** A pattern not compiled yet whose compiling may be slow: done on another thread too. */
const costlyToCompile = (pattern: string): boolean => pattern.length > INLINE_COMPILE_CHARS || pattern.indexOf('{') !== -1;

/**
 * The run-time failure for a pattern the engine refuses (the same text on either thread). A
 * pattern refused at run time was built from values (a caller's input, a secret): the regex
 * engine's own words quote a piece of it (`` missing closing ): `(abc` ``), which may be part
 * of a secret that no masker could recognise, so the quote is left out.
 */
const refusal = (compiled: { reason: string; tooLarge?: boolean }): string =>
  compiled.tooLarge
    ? `the pattern is too large to run: ${compiled.reason}`
    : `the pattern is not accepted by the linear-time regex engine: ${compiled.reason.replace(/: `[\s\S]*`/, '')}`;

function checkSizes(run: FlowRun, pattern: string, input: string): void {
  const { maxRegexPatternChars, maxRegexInputChars } = run.limits;
  if (pattern.length > maxRegexPatternChars) throw new ValueTooLarge(`the pattern is ${formatCount(pattern.length)} characters; the limit is ${formatCount(maxRegexPatternChars)}`);
  if (input.length > maxRegexInputChars) throw new ValueTooLarge(`the input text is ${formatCount(input.length)} characters; the limit is ${formatCount(maxRegexInputChars)}`);
}

async function offload(run: FlowRun, port: RegexPort, slot: number, task: Omit<RegexTask, 'maxResultChars'>): Promise<void> {
  let outcome: RegexOutcome;
  try {
    outcome = await port.match({ ...task, maxResultChars: run.limits.maxValueChars }, run.signal);
  } catch (error) {
    throw portFailure(run, error, 'the match');
  }
  if (outcome.ok) run.keep(slot, outcome.result);
  else if (outcome.reason === 'too_large') throw new ValueTooLarge(outcome.message);
  else throw new BlockFailure(outcome.message);
}

/** Compiled patterns of one block, the last few kept (patterns built from variables are compiled at run time). */
class PatternCache {
  private readonly compiled = new Map<string, CompiledPattern>();

  constructor(private readonly flags: string) {}

  peek(source: string): CompiledPattern | undefined {
    return this.compiled.get(source);
  }

  keep(source: string, compiled: CompiledPattern): void {
    if (this.compiled.size >= DYNAMIC_PATTERN_CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value as string);
    this.compiled.set(source, compiled);
  }

  compile(source: string): CompiledPattern {
    const compiled = compilePattern(source, this.flags);
    this.keep(source, compiled);
    return compiled;
  }
}

/** What a worker thread runs for `RegexPort.match`: the same matching, its failures as data. */
export function runRegexTask(task: RegexTask): RegexOutcome {
  const compiled = compilePattern(task.pattern, task.flags);
  if (!compiled.ok) return { ok: false, reason: 'invalid_pattern', message: refusal(compiled) };
  try {
    return { ok: true, result: compiled.pattern.matchAll(task.input, task.maxResultChars) };
  } catch (error) {
    if (error instanceof ValueTooLarge) return { ok: false, reason: 'too_large', message: error.message };
    throw error;
  }
}
