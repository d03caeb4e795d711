#!/usr/bin/env node
// Keeps one service of the local stack running, as an orchestrator would in production:
// `node scripts/lib/supervisor.js '<json: name, command, args, readyUrl>'` starts the service as
// its child, in its own process group (the one lib/processes.js records and signals), with the
// same output. When the service dies after it was ready once, it is started again after a
// backoff (1 s, doubling to 30 s; back to 1 s after a minute of running), each time with a line
// in its log. A service that dies before it was ever ready is not restarted: the supervisor
// exits with its code, so `npm start`/`npm run up` report the start-up failure as before.
// Stopping: SIGTERM to the process group (what `npm run down` does) reaches the service and the
// supervisor together; the supervisor then waits for the service to exit and restarts nothing.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
// The apps' one exponential backoff (libs/platform/src/backoff.ts), through the TypeScript hook.
require('../register-ts');
const { backoffMs } = require('../../libs/platform/src/backoff');

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A run this long counts as healthy: the next crash waits the first backoff again. */
const STABLE_MS = 60_000;

const spec = JSON.parse(process.argv[2] ?? '{}');
const runDir = path.resolve(__dirname, '..', '..', '.run');
const childPidFile = path.join(runDir, `${spec.name}.child.pid`);
/** Written once the service was ready: from then on it is restarted (`npm run up` waits for it). */
const readyFile = path.join(runDir, `${spec.name}.supervised`);
const say = (line) => process.stdout.write(`[supervisor] ${line}\n`);

let child = null;
let stopping = false;
let everReady = false;
let restarts = 0;
/** Crashes since the service last ran for STABLE_MS: the backoff's exponent. */
let failures = 0;
let restartTimer = null;

async function answersReady() {
  try {
    const response = await fetch(spec.readyUrl, { signal: AbortSignal.timeout(2000), redirect: 'manual' });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Polls the readiness URL until the first success (after that, only exits matter). */
async function watchFirstReady(current) {
  while (!everReady && !stopping && child === current && current.exitCode === null && current.signalCode === null) {
    if (await answersReady()) {
      everReady = true;
      fs.writeFileSync(readyFile, `${process.pid}\n`);
      if (restarts === 0) say(`${spec.name} is ready; it is started again if it dies`);
    } else await sleep(500);
  }
}

function start() {
  restartTimer = null;
  const startedAt = Date.now();
  const current = spawn(spec.command, spec.args, { stdio: 'inherit' });
  child = current;
  fs.mkdirSync(runDir, { recursive: true });
  fs.writeFileSync(childPidFile, `${current.pid}\n`);
  if (restarts > 0) say(`${spec.name} started again (pid ${current.pid})`);
  void watchFirstReady(current);
  current.on('exit', (code, signal) => {
    const how = signal ?? `code ${code}`;
    if (stopping) {
      cleanUp();
      process.exit(code ?? 0);
    }
    if (!everReady) {
      say(`${spec.name} exited (${how}) before it was ever ready; not restarting it`);
      cleanUp();
      process.exit(code || 1);
    }
    failures = Date.now() - startedAt >= STABLE_MS ? 1 : failures + 1;
    restarts += 1;
    const waitMs = backoffMs(failures, { firstMs: FIRST_BACKOFF_MS, maxMs: MAX_BACKOFF_MS });
    say(`${spec.name} exited (${how}); restarting it in ${waitMs / 1000} s (restart ${restarts})`);
    restartTimer = setTimeout(start, waitMs);
  });
}

function cleanUp() {
  for (const file of [childPidFile, readyFile]) fs.rmSync(file, { force: true });
}

function onSignal() {
  // The signal went to the whole process group: the service has it too and shuts down.
  stopping = true;
  if (restartTimer) {
    clearTimeout(restartTimer);
    cleanUp();
    process.exit(0);
  }
  if (!child || child.exitCode !== null || child.signalCode !== null) {
    cleanUp();
    process.exit(0);
  }
}
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);

if (!spec.name || !spec.command || !Array.isArray(spec.args)) {
  process.stderr.write("usage: node scripts/lib/supervisor.js '{\"name\":…,\"command\":…,\"args\":[…],\"readyUrl\":…}'\n");
  process.exit(2);
}
fs.rmSync(readyFile, { force: true });
start();
