#!/usr/bin/env node
// `npm test`: every check, in stages, stopping at the first that fails —
// prepare (npm dependencies, Prisma client), services (PostgreSQL, Redis, Kafka started or
// installed when missing), lint (Nx graph + ESLint with the module boundaries), typecheck
// (backend, dashboard, browser tests, typed scripts), jest (the three tiers of jest.config.js:
// unit, dashboard, integration).
// Arguments after `--` go to Jest: `npm test -- libs/contracts`. `npm run test:unit` is the fast
// loop: the unit and dashboard tiers alone, no service started.
'use strict';

const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bin = path.join(root, 'node_modules', '.bin');
const jestArgs = process.argv.slice(2);

const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
};

const stages = [];
const stage = (name, run) => stages.push({ name, run });

function exec(command, args, { quietUnlessFailed = false } = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    env,
    stdio: quietUnlessFailed ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    if (quietUnlessFailed) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`\`${[command, ...args].join(' ')}\` failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
  }
}

stage('prepare: npm dependencies and Prisma client', () => {
  const { ensureDependencies, ensurePrismaClient } = require('./lib/prepare');
  ensureDependencies();
  ensurePrismaClient();
});

// What this run started, so that a CI run leaves no process behind (a developer's machine
// keeps them for the next run).
let startedServices = [];

stage('services: PostgreSQL, Redis, Kafka', async () => {
  const { ensureServices } = require('./lib/services');
  ({ started: startedServices } = await ensureServices({ postgres: true, redis: true, kafka: true }));
});

stage('lint: Nx project graph and ESLint (module boundaries included)', () => {
  exec('nx', ['show', 'projects'], { quietUnlessFailed: true });
  exec('eslint', ['.', '--max-warnings=0']);
});

stage('typecheck: backend and libs, dashboard, browser tests, typed scripts', () => {
  exec('tsc', ['-p', 'tsconfig.json', '--noEmit']);
  exec('tsc', ['-p', 'apps/dashboard/tsconfig.json', '--noEmit']);
  // Browser tests run code in the page (page.evaluate): they need the DOM's types, the backend must not see them.
  exec('tsc', ['-p', 'test/browser/tsconfig.json', '--noEmit']);
  // The scripts' JavaScript under `// @ts-check` (JSDoc types; scripts/lib/services against its index.d.ts).
  exec('tsc', ['-p', 'tsconfig.scripts.json']);
});

const jestResults = path.join(root, '.cache', 'jest-results.json');

stage('jest: unit, dashboard and integration tiers', () => {
  try {
    exec('jest', ['--ci', '--json', `--outputFile=${jestResults}`, ...jestArgs]);
  } finally {
    printTestCounts();
  }
});

/** The plain closing line CI reads: `tests: N passed, N failed`. */
function printTestCounts() {
  try {
    const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(require('node:fs').readFileSync(jestResults, 'utf8'));
    const skipped = numPendingTests ? `, ${numPendingTests} skipped` : '';
    process.stdout.write(`tests: ${numPassedTests} passed, ${numFailedTests} failed${skipped}\n`);
  } catch {
    // Jest wrote no results (it failed before running): its own output says why.
  }
}

async function cleanUp() {
  if (!process.env.CI || startedServices.length === 0) return;
  const { stopStartedServices } = require('./lib/services');
  await stopStartedServices({ quiet: true });
}

async function main() {
  const started = Date.now();
  for (const [index, { name, run }] of stages.entries()) {
    process.stdout.write(`\n=== [${index + 1}/${stages.length}] ${name} ===\n`);
    const stageStarted = Date.now();
    try {
      await run();
    } catch (error) {
      process.stderr.write(`\n✗ stage "${name.split(':')[0]}" failed: ${error.message}\n`);
      await cleanUp();
      process.exit(1);
    }
    process.stdout.write(`--- ${name.split(':')[0]} passed in ${((Date.now() - stageStarted) / 1000).toFixed(1)} s\n`);
  }
  await cleanUp();
  process.stdout.write(`\nnpm test: all ${stages.length} stages passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

// On an older Node, run again on the project's Node 22 (scripts/lib/node-version.js).
if (!require('./lib/node-version').rerunOnProjectNode()) void main();
