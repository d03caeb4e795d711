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

const fs = require('node:fs');
const Module = require('node:module');
const { transformSync } = require('@swc/core');
const { swcOptions } = require('./lib/swc-options');

/** @type {import('@swc/core').Options} */
const options = { ...swcOptions(), sourceMaps: 'inline' };

/**
 * Compiles one TypeScript module and runs it (what Node does for a `.js` file, after the transform).
 * @param {{ _compile(code: string, filename: string): void }} module
 * @param {string} filename
 */
function compileTypeScript(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
}

// Node's own loader table (Module._extensions) is what require hooks extend; it is not in @types/node.
const extensions = /** @type {Record<string, unknown>} */ (/** @type {{ _extensions: unknown }} */ (/** @type {unknown} */ (Module))._extensions);
extensions['.ts'] = compileTypeScript;
extensions['.tsx'] = compileTypeScript;
process.setSourceMapsEnabled(true);
