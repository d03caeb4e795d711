#!/usr/bin/env node
// `npm run build`: the production build. Every backend app and the libraries it imports are
// compiled to plain CommonJS under dist/ (same layout as the sources, so `node
// dist/apps/gateway/src/main.js` runs the gateway), with the repository's SWC settings
// (.swcrc: decorator metadata for Nest), the tsconfig path aliases rewritten to relative
// requires, and a source map beside each file. The database migrations are copied to
// dist/prisma/migrations (the runner finds them relative to itself). Then the dashboard's
// Vite build goes to dist/apps/dashboard. Nothing here runs TypeScript at run time.
//
// `node scripts/build.js` builds everything; `--backend` skips the dashboard (the benchmarks,
// the noisy-neighbour drill and the images' backend stage need only the apps);
// `--out <dir>` writes somewhere else than dist/ (inside the repository, so that
// node_modules resolves).
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { swcOptions } = require('./lib/swc-options');

const root = path.resolve(__dirname, '..');

/** The backend apps (the dashboard is Vite's) and every library, the generated Prisma client included. */
const BACKEND_APPS = ['control-plane', 'gateway', 'log-ingest', 'worker'];
const SOURCE_DIRS = [
  ...BACKEND_APPS.map((app) => `apps/${app}/src`),
  ...fs
    .readdirSync(path.join(root, 'libs'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(root, 'libs', entry.name, 'src')))
    .map((entry) => `libs/${entry.name}/src`)
    .sort(),
];

/** Specs stay out of the build. (A library's `testing/` helpers are compiled: a barrel may export one.) */
const isTestFile = (name) => /\.(spec|test)\.tsx?$/.test(name) || name.endsWith('.d.ts');

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return isTestFile(entry.name) ? [] : [full];
  });
}

/**
 * Compiles the backend into `outDir` (what an earlier backend build left there is removed
 * first; the dashboard's build stays); returns the number of files compiled. TypeScript files
 * become `.js` + `.js.map`; any other file in a source folder is copied. The benchmarks and the
 * noisy-neighbour drill call this too, so they measure what `npm run build` ships.
 */
function buildBackend(outDir = path.join(root, 'dist')) {
  const { transformFileSync } = require('@swc/core');
  const options = swcOptions();
  for (const dir of [...SOURCE_DIRS, 'prisma']) fs.rmSync(path.join(outDir, dir), { recursive: true, force: true });
  let compiled = 0;
  for (const dir of SOURCE_DIRS) {
    if (!fs.existsSync(path.join(root, dir))) throw new Error(`${dir} is missing${dir.startsWith('libs/db') ? ' (run npm run db:generate)' : ''}`);
    for (const file of sourceFiles(path.join(root, dir))) {
      const target = path.join(outDir, path.relative(root, file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      if (!/\.tsx?$/.test(file)) {
        fs.copyFileSync(file, target);
        continue;
      }
      const js = target.replace(/\.tsx?$/, '.js');
      const { code, map } = transformFileSync(file, { ...options, filename: file, sourceFileName: path.relative(path.dirname(js), file) });
      fs.writeFileSync(js, `${code}\n//# sourceMappingURL=${path.basename(js)}.map\n`);
      fs.writeFileSync(`${js}.map`, map);
      compiled += 1;
    }
  }
  if (!fs.existsSync(path.join(outDir, 'libs/db/src/generated'))) throw new Error('libs/db/src/generated (the Prisma client) is missing: run npm run db:generate');
  fs.cpSync(path.join(root, 'prisma/migrations'), path.join(outDir, 'prisma/migrations'), { recursive: true });
  return compiled;
}

/** The dashboard's production build (Vite) into `outDir`/apps/dashboard. */
function buildDashboard(outDir) {
  const target = path.join(outDir, 'apps/dashboard');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', 'apps/dashboard', '--outDir', target, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (result.status !== 0) throw new Error(`vite build exited with ${result.status ?? result.signal}`);
}

function main() {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const outDir = path.resolve(root, outIndex >= 0 ? args[outIndex + 1] : 'dist');
  if (path.relative(root, outDir).startsWith('..')) throw new Error(`--out must lie inside the repository (node_modules must resolve): ${outDir}`);
  const started = Date.now();
  const compiled = buildBackend(outDir);
  process.stderr.write(`[build] ${compiled} files compiled to ${path.relative(root, outDir)}/ (apps and libraries, with source maps)\n`);
  if (!args.includes('--backend')) {
    buildDashboard(outDir);
    process.stderr.write(`[build] dashboard built to ${path.relative(root, outDir)}/apps/dashboard\n`);
  }
  process.stderr.write(`[build] done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

// On an older Node, run again on the project's Node 22 (scripts/lib/node-version.js).
if (require.main === module && !require('./lib/node-version').rerunOnProjectNode()) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`[build] ${error.message}\n`);
    process.exit(1);
  }
}

module.exports = { buildBackend, BACKEND_APPS, SOURCE_DIRS };
