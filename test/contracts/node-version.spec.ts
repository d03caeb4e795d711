/**
 * Node 22 LTS is the floor of every command (scripts/lib/node-version.js): the unit tier runs on it,
 * and a script started by whatever `node` the machine has runs on it too.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');
const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/** The machine's own `node`: the first on PATH outside this repository's node_modules. */
function machineNode(): string {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => dir && !dir.includes('node_modules'));
  const found = spawnSync('sh', ['-c', 'command -v node'], { env: { PATH: dirs.join(path.delimiter) }, encoding: 'utf8' }).stdout.trim();
  return found || process.execPath;
}

describe('Node version', () => {
  it('runs the unit tier on Node 22 or later', () => {
    expect(major(process.version)).toBeGreaterThanOrEqual(22);
  });

  it("runs a project script on Node 22 or later whatever the machine's own node is", () => {
    const node = machineNode();
    const result = spawnSync(node, ['scripts/run-ts.js', 'test/contracts/print-node-version.ts'], {
      cwd: root,
      env: { ...process.env, PATH: path.dirname(node) },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(major(result.stdout.trim())).toBeGreaterThanOrEqual(22);
  });
});
