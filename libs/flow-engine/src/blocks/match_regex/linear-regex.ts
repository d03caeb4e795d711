import { RE2JS } from 're2js';
import { hasOwn, setOwn } from '../../json';
import { ValueTooLarge } from '../../runtime/run-errors';
import { formatCount } from '../../runtime/value-size';
import { programSizeFloor } from './program-size-floor';

/**
 * User patterns run on RE2JS, a linear-time engine (no backtracking), so a pattern like
 * `(a+)+$` cannot stall the gateway. JavaScript-style `(?<name>…)` groups are accepted as they
 * are; backreferences and lookaround are refused with the engine's reason.
 */
export const REGEX_FLAGS_PATTERN = /^[imsgu]*$/;

/** Fields of a Match Regex result; a named group may not take one of these names. */
export const MATCH_RESULT_FIELDS = ['matches', 'captures', 'isMatch'] as const;

/**
 * Largest compiled program (RE2 instructions) a pattern may have. Counted repetitions multiply
 * a pattern's program: `((.)|b){0,1000}z` is 16 characters and 8,003 instructions, and the
 * matching work grows with instructions × text. Ordinary patterns have tens; `.{0,1000}` has
 * 2,002; compiling 3,000 takes a few milliseconds.
 */
export const MAX_REGEX_PROGRAM_SIZE = 3000;

/** `tooLarge`: the pattern compiles but its program is over MAX_REGEX_PROGRAM_SIZE. */
export type CompiledPattern = { ok: true; pattern: LinearPattern } | { ok: false; reason: string; tooLarge?: boolean };

/**
 * `i` ignore case, `m` ^ and $ at line breaks, `s` dot matches newlines; `g` and `u` are
 * accepted and change nothing (every match is collected, matching is always Unicode).
 */
function flagBits(flags: string): number {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  return bits;
}

export function compilePattern(pattern: string, flags: string): CompiledPattern {
  // Over the limit before compiling: refused without spending the compile time.
  const floor = programSizeFloor(pattern);
  if (floor > MAX_REGEX_PROGRAM_SIZE) return tooLarge(`at least ${formatCount(floor)}`);
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern, flagBits(flags));
  } catch (error) {
    return { ok: false, reason: explain(pattern, error) };
  }
  const size = regex.programSize();
  if (size > MAX_REGEX_PROGRAM_SIZE) return tooLarge(formatCount(size));
  return { ok: true, pattern: new LinearPattern(regex, size) };
}

/** Whether a pattern not compiled yet is over the limit already by its text (programSizeFloor). */
export const surelyTooLarge = (pattern: string): boolean => programSizeFloor(pattern) > MAX_REGEX_PROGRAM_SIZE;

const tooLarge = (instructions: string): CompiledPattern => ({
  ok: false,
  tooLarge: true,
  reason: `it compiles to ${instructions} instructions; the limit is ${formatCount(MAX_REGEX_PROGRAM_SIZE)} (counted repetitions such as {0,1000} multiply the size of what they repeat)`,
});

function explain(pattern: string, error: unknown): string {
  const reason = (error instanceof Error ? error.message : String(error)).replace(/^error parsing regexp: /, '');
  if (/\(\?<?[=!]/.test(pattern)) return `${reason} (lookahead and lookbehind are not supported)`;
  if (/\\(?:[1-9]|k<)/.test(pattern)) return `${reason} (backreferences are not supported)`;
  return reason;
}

export interface MatchResult {
  matches: string[];
  captures: Array<string | null>;
  isMatch: boolean;
  [group: string]: unknown;
}

const DFA_PRECHECK_LENGTH = 256;
/**
 * Work a match costs per character beyond the program's instructions: each match found costs
 * about a microsecond of bookkeeping (`(.)` on 8,000 characters: 8,000 matches).
 */
const PER_CHARACTER_UNITS = 32;

/** A compiled pattern with what each match needs worked out once. */
export class LinearPattern {
  readonly groupNames: readonly string[];
  private readonly named: ReadonlyArray<readonly [string, number]>;

  constructor(
    private readonly regex: RE2JS,
    /** RE2 instructions of the compiled program. */
    readonly programSize: number,
  ) {
    this.named = Object.entries(regex.namedGroups());
    this.groupNames = this.named.map(([name]) => name);
  }

  /**
   * What matching `inputLength` characters may cost, in units of ~30 ns at worst (measured:
   * RE2's NFA steps through every instruction for every character, 17–33 ns each on the
   * counted-repetition patterns that are the worst case). Known before the match runs.
   */
  cost(inputLength: number): number {
    return (this.programSize + PER_CHARACTER_UNITS) * inputLength;
  }

  /**
   * `matches`: every full match; `captures`: every group's value of every match, in order, as
   * one flat list (null for a group that took no part); each named group: its value in the
   * first match (null without a match). Successive matches follow RE2: they do not overlap,
   * and an empty match right after a match is skipped.
   */
  matchAll(input: string, maxResultChars = Infinity): MatchResult {
    // Asking RE2 for one match more than the limit can hold (each takes at least a few
    // characters) bounds the work and the memory before the result is measured.
    const perMatch = 3 * (this.regex.groupCount() + 1);
    const maxMatches = Number.isFinite(maxResultChars) ? Math.floor(maxResultChars / perMatch) + 1 : -1;
    // On long text the DFA rules out "no match" far faster than the capturing engines; on short
    // text the check would cost more than it saves. findAllSubmatch is about twice as fast as
    // iterating a Matcher.
    const found =
      input.length > DFA_PRECHECK_LENGTH && !this.regex.test(input)
        ? null
        : (this.regex.re2().findAllSubmatch(input, maxMatches) as Array<Array<string | null>> | null);
    const matches: string[] = [];
    const captures: Array<string | null> = [];
    let size = 40;
    if (found !== null) {
      for (const groups of found) {
        matches.push(groups[0] as string);
        size += (groups[0] as string).length + 3;
        for (let group = 1; group < groups.length; group++) {
          captures.push(groups[group]);
          size += (groups[group]?.length ?? 2) + 3;
        }
      }
    }
    if (size > maxResultChars) throw new ValueTooLarge(`the matches would be at least ${formatCount(size)} characters; the limit is ${formatCount(maxResultChars)}`);
    const result: MatchResult = { matches, captures, isMatch: found !== null };
    // A group may be named like a result field (refused at Deploy for static patterns): the
    // result field wins.
    for (const [name, index] of this.named) if (!hasOwn(result, name)) setOwn(result, name, found === null ? null : found[0][index]);
    return result;
  }
}
