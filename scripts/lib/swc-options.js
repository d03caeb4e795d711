// @ts-check
// The SWC settings every TypeScript file of the backend is compiled with, in the production
// build (scripts/build.js) and when the sources run directly (scripts/register-ts.js): the
// repository's .swcrc (decorator metadata for Nest) plus the tsconfig path aliases
// (`@flowgate/…`), which SWC rewrites to relative requires.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

/** @returns {import('@swc/core').Options} */
function swcOptions() {
  const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
  delete swcrc.$schema;
  const { paths } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions;
  return { ...swcrc, swcrc: false, sourceMaps: true, jsc: { ...swcrc.jsc, baseUrl: root, paths } };
}

module.exports = { swcOptions };
