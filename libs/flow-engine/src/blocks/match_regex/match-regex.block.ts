import { z } from 'zod';
import { BlockFailure } from '../../runtime/run-errors';
import { defineBlock, textSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../shared/fields';
import { compilePattern, MATCH_RESULT_FIELDS, REGEX_FLAGS_PATTERN, type CompiledPattern } from './linear-regex';

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
  check: (config, diagnostics) => {
    const compiled = staticPattern(config);
    if (compiled === null) return;
    if (!compiled.ok) {
      diagnostics.error('invalid_regex', 'pattern', `Pattern is not accepted by the linear-time regex engine: ${compiled.reason}`);
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
    if (fixed !== null) {
      if (!fixed.ok) throw new Error(`Pattern of ${context.nodeId} does not compile: ${fixed.reason}`);
      const linear = fixed.pattern;
      return (run) => {
        run.vars[slot] = linear.matchAll(input(run));
      };
    }
    const pattern = context.text(config.pattern);
    const cache = new Map<string, CompiledPattern>();
    return (run) => {
      const source = pattern(run);
      let compiled = cache.get(source);
      if (compiled === undefined) {
        compiled = compilePattern(source, config.flags);
        if (cache.size >= DYNAMIC_PATTERN_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(source, compiled);
      }
      if (!compiled.ok) throw new BlockFailure(`the pattern is not accepted by the linear-time regex engine: ${compiled.reason}`);
      run.vars[slot] = compiled.pattern.matchAll(input(run));
    };
  },
});
