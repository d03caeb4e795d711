// @ts-check
// What every repository command needs before it can run TypeScript: the npm dependencies and
// the generated Prisma client. Each step is skipped when its output is already current.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

/** @param {string} file */
function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** @param {string} command @param {string[]} args @param {string} what */
function runOrThrow(command, args, what) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status ?? result.signal}) — see the output above`);
}

/** `npm install` when node_modules is missing or older than package-lock.json. */
function ensureDependencies(log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`)) {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(installed) && mtime(installed) >= mtime(lock)) return false;
  log('installing npm dependencies (npm install)');
  // Several checkouts on one machine may install at once; flock serialises them where it exists.
  const hasFlock = spawnSync('sh', ['-c', 'command -v flock'], { stdio: 'ignore' }).status === 0;
  const npm = ['npm', 'install', '--no-audit', '--no-fund'];
  if (hasFlock) runOrThrow('flock', [path.join(require('node:os').tmpdir(), 'npm.lock'), ...npm], 'npm install');
  else runOrThrow(npm[0], npm.slice(1), 'npm install');
  // npm leaves the file alone when nothing changed; mark it current so we do not reinstall.
  if (fs.existsSync(installed)) fs.utimesSync(installed, new Date(), new Date());
  return true;
}

/** `prisma generate` when the client is missing or older than the schema. */
function ensurePrismaClient(log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`)) {
  const client = path.join(root, 'libs', 'db', 'src', 'generated', 'client.ts');
  const schema = path.join(root, 'prisma', 'schema.prisma');
  if (!fs.existsSync(schema)) return false;
  if (fs.existsSync(client) && mtime(client) >= mtime(schema)) return false;
  log('generating the Prisma client');
  runOrThrow(process.execPath, [path.join(root, 'scripts', 'prisma-generate.js'), '--quiet'], 'prisma generate');
  return true;
}

module.exports = { ensureDependencies, ensurePrismaClient };
