/**
 * The docs are contracts and the journal holds the measurements (docs/README.md): a contract page
 * stays short enough to read, and neither a page nor the code points at a tracker's issue
 * numbers or at a dated "round" of measurements, which only perf/JOURNAL.md may name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');
const MAX_PAGE_LINES = 600;
/** The word issue (or issues) before a number, an ordinal or "this/next/last" before round, round before a number: a tracker's or a diary's words. */
const DIARY = /\bissues?\s*#?\d+|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|this|next|last|previous|earlier)\s+round\b|\bround\s+\d/i;
/** The planning files beside the repository, which a clone does not have: DESIGN.md, DASHBOARD.md, ../shared. */
const OUTSIDE = /\bDESIGN\.md\b|\bDASHBOARD\.md\b|\.\.\/shared\b/;
const SCANNED = ['apps', 'libs', 'scripts', 'test', 'bench', 'docs', 'deploy', 'README.md'];
const SKIPPED = new Set(['node_modules', 'dist', 'generated', '.cache', '.run']);

function* files(path: string): Generator<string> {
  if (statSync(path).isFile()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) yield* files(child);
    else if (/\.(m?[jt]sx?|md|css|ya?ml|sh|json)$/.test(entry.name) || entry.name === 'Dockerfile') yield child;
  }
}

/** `file:line: text` of every scanned line that matches, but this file's own (it spells the patterns out). */
function linesMatching(matches: (line: string) => boolean): string[] {
  const hits: string[] = [];
  for (const top of SCANNED) {
    for (const file of files(join(root, top))) {
      const name = relative(root, file);
      if (name === 'test/contracts/docs-are-contracts.spec.ts') continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (matches(line)) hits.push(`${name}:${index + 1}: ${line.trim()}`);
        });
    }
  }
  return hits;
}

describe('docs are contracts', () => {
  it(`keeps every contract page in docs/ under ${MAX_PAGE_LINES} lines`, () => {
    const long = readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => ({ name, lines: readFileSync(join(root, 'docs', name), 'utf8').trimEnd().split('\n').length }))
      .filter((page) => page.lines > MAX_PAGE_LINES)
      .map((page) => `docs/${page.name}: ${page.lines} lines`);
    expect(long).toEqual([]);
  });

  it('names no issue number or dated round outside perf/JOURNAL.md', () => {
    expect(linesMatching((line) => DIARY.test(line) && !line.includes('eslint-disable'))).toEqual([]);
  });

  it('points at no planning file outside the repository (a clone has only docs/)', () => {
    expect(linesMatching((line) => OUTSIDE.test(line))).toEqual([]);
  });
});
