#!/usr/bin/env node
// `node scripts/pack-app.js <app> <outDir>`: what one app's image holds, after `npm run build`.
// Traces the files the app's compiled code can load (@vercel/nft: every require and the files
// read relative to __dirname, through node_modules, with Node's `require` export conditions)
// and copies exactly those into <outDir>, in the repository's layout, so `node
// <outDir>/dist/apps/<app>/src/main.js` runs. The image then carries the app and the production
// packages it uses, not the whole dependency tree (the gateway needs neither Nest nor Prisma). A traced package that is not in `dependencies` ends
// the command with exit 1: production images hold production dependencies only. Beside them,
// `<outDir>/node-flags` holds the app's Node flags (scripts/lib/node-flags.js) for the image's CMD.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const { BACKEND_APPS: APPS } = require('./build');
const { nodeFlagsOf } = require('./lib/node-flags');

/** Packages loaded by a computed name (Nest's HTTP driver), which the tracer cannot see. */
const LOADED_BY_NAME = { 'control-plane': ['@nestjs/platform-express'] };

/** Files that are loaded by path at run time (worker threads, the queue registry, the migration CLI). */
function entryPoints(app) {
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'testing' ? [] : walk(full);
      return entry.name.endsWith('.js') ? [full] : [];
    });
  const dist = path.join(root, 'dist');
  const own = walk(path.join(dist, 'apps', app, 'src'));
  const threads = walk(path.join(dist, 'libs')).filter((file) => /[.-]worker\.js$/.test(file));
  const extra = app === 'control-plane' ? ['migrate.cli.js', 'migrate-wait.cli.js'].map((file) => path.join(dist, 'libs/db/src', file)) : [];
  const byName = (LOADED_BY_NAME[app] ?? []).map((name) => require.resolve(name, { paths: [root] }));
  return [...own, ...threads, ...extra, ...byName];
}

/** The package a node_modules path belongs to (`@scope/name` or `name`), the outermost one. */
function packageOf(file) {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return match ? match[1] : null;
}

async function pack(app, outDir) {
  if (!APPS.includes(app)) throw new Error(`unknown app ${app} (known: ${APPS.join(', ')})`);
  if (!fs.existsSync(path.join(root, 'dist/apps', app, 'src/main.js'))) throw new Error(`dist/apps/${app}/src/main.js is missing: run npm run build first`);
  const { nodeFileTrace } = require('@vercel/nft');
  // Node's own conditions for require(): `module-sync` picks a package's require(esm) entry.
  const { fileList, warnings } = await nodeFileTrace(entryPoints(app), { base: root, processCwd: root, conditions: ['module-sync', 'node', 'require'] });
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const production = new Set(Object.keys(manifest.dependencies ?? {}));
  const development = new Set(Object.keys(manifest.devDependencies ?? {}));
  const devOnly = [...new Set([...fileList].map(packageOf).filter((name) => name && development.has(name) && !production.has(name)))];
  if (devOnly.length > 0) throw new Error(`${app} loads development dependencies at run time: ${devOnly.join(', ')} (move them to dependencies, or stop importing them)`);
  fs.rmSync(outDir, { recursive: true, force: true });
  for (const file of [...fileList].sort()) {
    const source = path.join(root, file);
    const stat = fs.lstatSync(source);
    if (stat.isDirectory()) continue;
    const target = path.join(outDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (stat.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
    else fs.copyFileSync(source, target);
    // The source maps of our own files (for --enable-source-maps).
    if (file.startsWith('dist/') && fs.existsSync(`${source}.map`)) fs.copyFileSync(`${source}.map`, `${target}.map`);
  }
  // The app's deployed Node flags (scripts/lib/node-flags.js), which the Dockerfile's CMD passes to node.
  fs.writeFileSync(path.join(outDir, 'node-flags'), `${nodeFlagsOf(app).join(' ')}\n`);
  if (app === 'control-plane') fs.cpSync(path.join(root, 'dist/prisma'), path.join(outDir, 'dist/prisma'), { recursive: true });
  const packages = new Set([...fileList].map(packageOf).filter(Boolean));
  const bytes = Number(execFileSync('du', ['-sb', outDir], { encoding: 'utf8' }).split('\t')[0]);
  const notable = [...warnings].filter((warning) => !/Failed to resolve dependency|Module not found/.test(String(warning.message)));
  for (const warning of notable) process.stderr.write(`[pack] ${app}: ${warning.message}\n`);
  process.stderr.write(`[pack] ${app}: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${packages.size} packages → ${path.relative(process.cwd(), outDir) || '.'}\n`);
}

if (require.main === module) {
  const [app, outDir] = process.argv.slice(2);
  if (!app || !outDir) {
    process.stderr.write('usage: node scripts/pack-app.js <control-plane|gateway|log-ingest|worker> <outDir>\n');
    process.exit(2);
  }
  pack(app, path.resolve(outDir)).catch((error) => {
    process.stderr.write(`[pack] ${error.message}\n`);
    process.exit(1);
  });
}

module.exports = { pack, APPS };
