// @ts-check
// The require hook that runs the TypeScript sources in development (`npm start`/`npm run up`,
// the tests' processes, the benchmarks): every `.ts` file is compiled when first required, with
// the repository's SWC settings and the tsconfig path aliases — the same transform as
// `npm run build` (scripts/lib/swc-options.js), so what runs from source behaves as what ships.
//
// It replaces @swc-node/register, which loads the whole TypeScript compiler (~18 MB of heap) to
// read tsconfig.json and keeps it for the life of the process: every full garbage collection of
// every app then marked it again (`npm run bench -- log-ingest-alone`). Stack traces point at
// the TypeScript lines: the compiled code carries an inline source map, and Node's own
// source-map support reads it when a stack trace is formatted.
//
// Use: `node -r ./scripts/register-ts.js file.ts`, `require('<root>/scripts/register-ts.js')`
// (worker threads), or `node scripts/run-ts.js file.ts`.
'use strict';

const { createHash } = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { transformSync } = require('@swc/core');
const { swcOptions } = require('./lib/swc-options');

/** @type {import('@swc/core').Options} */
const options = { ...swcOptions(), sourceMaps: 'inline' };

// Compiled modules are kept in .cache/ts, keyed by the file's path and source, the options and
// SWC's version: a process that starts (every app, test and bench process starts from source)
// reads them instead of compiling every file again (about a tenth of the control plane's
// start-up CPU). An edited file has another key; old entries are left for `rm -rf .cache/ts`.
const CACHE_DIR = path.join(__dirname, '..', '.cache', 'ts');
const CACHE_SALT = JSON.stringify([options, require('@swc/core/package.json').version]);

/**
 * Compiles one TypeScript module and runs it (what Node does for a `.js` file, after the transform).
 * @param {{ _compile(code: string, filename: string): void }} module
 * @param {string} filename
 */
function compileTypeScript(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const key = createHash('sha256').update(CACHE_SALT).update(filename).update('\0').update(source).digest('hex');
  const cached = path.join(CACHE_DIR, `${key}.js`);
  let code;
  try {
    code = fs.readFileSync(cached, 'utf8');
  } catch {
    ({ code } = transformSync(source, { ...options, filename }));
    writeCache(cached, code);
  }
  module._compile(code, filename);
}

/**
 * Writes a compiled module where the next process finds it; a cache that cannot be written is no cache.
 * @param {string} file
 * @param {string} code
 */
function writeCache(file, code) {
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed: a process reading it at the same moment sees all of it or nothing.
    const aside = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(aside, code);
    fs.renameSync(aside, file);
  } catch {
    // read-only checkout, full disk: compile every time
  }
}

// Node's own loader table (Module._extensions) is what require hooks extend; it is not in @types/node.
const extensions = /** @type {Record<string, unknown>} */ (/** @type {{ _extensions: unknown }} */ (/** @type {unknown} */ (Module))._extensions);
extensions['.ts'] = compileTypeScript;
extensions['.tsx'] = compileTypeScript;
process.setSourceMapsEnabled(true);
