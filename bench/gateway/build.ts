import { transformFileSync, type Options } from '@swc/core';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What the gateway process loads: its own source and the libraries it imports. */
const SOURCE_DIRS = ['apps/gateway/src', 'libs/contracts/src', 'libs/flow-engine/src', 'libs/platform/src', 'libs/integrations/src', 'bench/gateway'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' || entry.name === 'generated' ? [] : tsFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * Compiles the gateway (and the bench's raw server) to plain JavaScript under `outDir`, with
 * the repository's SWC settings and the tsconfig path aliases rewritten to relative requires.
 * The processes then run on plain `node`, as a deployment would, instead of paying the SWC
 * require hook's memory (~80–100 MB RSS of native compiler) at run time. `outDir` must lie
 * inside the repository so that `node_modules` resolves.
 */
export function buildForBench(root: string, outDir: string): void {
  const swcrc = JSON.parse(readFileSync(path.join(root, '.swcrc'), 'utf8')) as Options & { $schema?: string };
  delete swcrc.$schema;
  const tsconfig = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  const options: Options = {
    ...swcrc,
    swcrc: false,
    sourceMaps: false,
    jsc: { ...swcrc.jsc, baseUrl: root, paths: tsconfig.compilerOptions.paths },
  };
  rmSync(outDir, { recursive: true, force: true });
  for (const dir of SOURCE_DIRS) {
    for (const file of tsFiles(path.join(root, dir))) {
      const target = path.join(outDir, path.relative(root, file)).replace(/\.ts$/, '.js');
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, transformFileSync(file, options).code);
    }
  }
}
