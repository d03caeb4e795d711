import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Runs a TypeScript file in a new process through the require hook, as `npm start` runs the apps; its output. */
function run(file: string): string {
  return execFileSync(process.execPath, ['-r', './scripts/register-ts.js', file], { cwd: ROOT, encoding: 'utf8' }).trim();
}

describe('the TypeScript require hook (scripts/register-ts.js)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'flowgate-register-ts-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs what the file says now, not what an earlier process compiled and kept', () => {
    const file = path.join(dir, 'greeting.ts');
    writeFileSync(file, "const greeting: string = 'first';\nconsole.log(greeting);\n");
    expect(run(file)).toBe('first');
    expect(run(file)).toBe('first'); // from .cache/ts this time
    writeFileSync(file, "const greeting: string = 'edited';\nconsole.log(greeting);\n");
    expect(run(file)).toBe('edited');
  });

  it('keeps stack traces on the TypeScript lines when a module comes from the cache', () => {
    const file = path.join(dir, 'fails.ts');
    writeFileSync(file, "type Unused = { a: number };\n\n\nconsole.log(new Error('here').stack!.split('\\n')[1]);\n");
    const first = run(file);
    expect(first).toContain(`${file}:4:`);
    expect(run(file)).toBe(first);
  });
});
