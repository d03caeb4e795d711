#!/usr/bin/env node
// Runs a TypeScript entry point through the SWC require hook (scripts/register-ts.js: decorator
// metadata and the tsconfig path aliases included): `node scripts/run-ts.js apps/gateway/src/main.ts [args]`.
const path = require('node:path');
const root = path.resolve(__dirname, '..');
// On an older Node, run again on the project's Node 22 (scripts/lib/node-version.js).
if (!require('./lib/node-version').rerunOnProjectNode()) {
  process.chdir(root);
  require('./register-ts');
  const entry = process.argv[2];
  if (!entry) {
    console.error('usage: node scripts/run-ts.js <file.ts> [args…]');
    process.exit(2);
  }
  process.argv.splice(1, 2, path.resolve(root, entry));
  require(path.resolve(root, entry));
}
