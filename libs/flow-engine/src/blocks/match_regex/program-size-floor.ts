/**
 * A lower bound of the RE2 program a pattern compiles to, read off its text in one pass without
 * compiling it: every literal character, class, `.` or escape is at least one instruction, a
 * capturing group two more (where it starts and ends), an alternation at least its largest
 * branch (RE2 may merge branches into a class or factor out a common prefix, never shorten one),
 * and a counted repetition `x{n,m}` holds at least max(n, m) copies of `x` (`x{n,}` n copies,
 * `x{0}` none), each of the m − n optional ones behind a branch instruction of its own.
 * (`((.)|b){0,1000}` is 5 + 1 a copy: 6,000, refused unread; counting 1 a copy, it was
 * compiled — 8,003 instructions, milliseconds — on every request that sent it.) Compiling is proportional to the program
 * (tens of milliseconds for a few thousand instructions), so a pattern whose floor is over the
 * limit is refused before any compiling starts: a pattern built from a request cannot hold a
 * thread for seconds. Unparseable text is counted as literal characters (the compiler then
 * says what is wrong).
 */
export function programSizeFloor(pattern: string): number {
  const groups: Group[] = [{ largestBranch: 0, branch: 0, last: 0, capturing: false }];
  let group = groups[0];
  const atom = (size: number): void => {
    group.branch += size;
    group.last = size;
  };
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === '\\') {
      // `\p{Greek}`, `\x{41}`: one instruction with their braces.
      const next = pattern[i + 1];
      i += 2;
      if ((next === 'p' || next === 'P' || next === 'x') && pattern[i] === '{') i = after(pattern, i, '}');
      atom(1);
    } else if (char === '[') {
      i = classEnd(pattern, i);
      atom(1);
    } else if (char === '(') {
      i++;
      let capturing = true;
      if (pattern[i] === '?') {
        // `(?i)` sets flags (no group); `(?:`, `(?i:` open a group, `(?<name>`, `(?P<name>` a capturing one.
        const prefix = /^\?(?:[a-zA-Z-]*[):]|P?<[^>]*>)/.exec(pattern.slice(i, i + 64));
        if (prefix !== null) i += prefix[0].length;
        if (prefix !== null && prefix[0].endsWith(')')) continue;
        capturing = prefix !== null && prefix[0].endsWith('>');
      }
      group = { largestBranch: 0, branch: 0, last: 0, capturing };
      groups.push(group);
    } else if (char === ')') {
      i++;
      if (groups.length > 1) {
        const size = closed(groups.pop()!);
        group = groups[groups.length - 1];
        atom(size);
      }
    } else if (char === '|') {
      i++;
      group.largestBranch = Math.max(group.largestBranch, group.branch);
      group.branch = 0;
      group.last = 0;
    } else if (char === '{') {
      const counted = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (counted === null) {
        i++;
        atom(1);
        continue;
      }
      i += counted[0].length;
      const min = Number(counted[1]);
      const copies = Math.max(min, counted[2] === undefined || counted[3] === '' ? min : Number(counted[3]));
      const repeated = group.last * copies + (copies - min);
      group.branch += repeated - group.last;
      group.last = repeated;
    } else {
      // `*`, `+`, `?`: no fewer instructions than what they repeat.
      i++;
      if (char !== '*' && char !== '+' && char !== '?') atom(1);
    }
  }
  while (groups.length > 1) {
    const size = closed(groups.pop()!);
    group = groups[groups.length - 1];
    atom(size);
  }
  return sizeOf(group);
}

interface Group {
  /** The largest finished branch of the group's alternation. */
  largestBranch: number;
  /** The branch being read. */
  branch: number;
  /** The branch's latest atom (what a quantifier repeats). */
  last: number;
  /** `(…)` and named groups: two capture instructions around what they hold. */
  capturing: boolean;
}

const sizeOf = (group: Group): number => Math.max(group.largestBranch, group.branch);
const closed = (group: Group): number => sizeOf(group) + (group.capturing ? 2 : 0);

/** Index after the bracket that closes a class starting at `start` (`]` first is a literal). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  while (i < pattern.length && pattern[i] !== ']') {
    if (pattern[i] === '\\') i += 2;
    else if (pattern[i] === '[' && pattern[i + 1] === ':') i = after(pattern, i, ']');
    else i++;
  }
  return i + 1;
}

function after(pattern: string, start: number, char: string): number {
  const end = pattern.indexOf(char, start);
  return end === -1 ? pattern.length : end + 1;
}
