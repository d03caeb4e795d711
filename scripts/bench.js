#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.ts one after the other (`npm run bench -- gateway`
// runs those whose name contains "gateway"), streams their output, and ends with a summary of
// the one-line JSON results they print (lines starting with `{"bench":`).
// Benchmarks start the apps they measure themselves; this runner makes sure the services run.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { ensureServices } = require('./lib/services');
const { stackEnv } = require('./lib/env');
const { ensureDependencies, ensurePrismaClient } = require('./lib/prepare');

const root = path.resolve(__dirname, '..');
const benchDir = path.join(root, 'bench');
const filters = process.argv.slice(2);

function runBench(file, env) {
  return new Promise((resolve) => {
    const results = [];
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'run-ts.js'), path.relative(root, file)], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      process.stdout.write(`${line}\n`);
      if (!line.startsWith('{"bench":')) return;
      try {
        results.push(JSON.parse(line));
      } catch {
        process.stderr.write(`bench: ${path.basename(file)} printed a summary line that is not JSON\n`);
      }
    });
    child.once('exit', (code, signal) => resolve({ code, signal, results }));
  });
}

function describe(result) {
  const { bench, ...rest } = result;
  const fields = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : value}`)
    .join('  ');
  return `  ${bench}  ${fields}`;
}

async function main() {
  ensureDependencies();
  ensurePrismaClient();
  const env = { ...stackEnv(), LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  await ensureServices({ postgres: true, redis: true, kafka: true, env });
  const files = (fs.existsSync(benchDir) ? fs.readdirSync(benchDir) : [])
    .filter((name) => name.endsWith('.bench.ts'))
    .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
    .sort()
    .map((name) => path.join(benchDir, name));
  if (files.length === 0) {
    process.stderr.write(`bench: no bench/*.bench.ts${filters.length ? ` matching ${filters.join(', ')}` : ''}\n`);
    process.exit(1);
  }

  const summary = [];
  const failed = [];
  for (const file of files) {
    const name = path.basename(file);
    process.stdout.write(`\n=== ${name} ===\n`);
    const { code, signal, results } = await runBench(file, env);
    summary.push(...results);
    if (code !== 0) failed.push(`${name} (${signal ?? `exit ${code}`})`);
  }

  process.stdout.write(`\n=== summary: ${summary.length} result(s) from ${files.length} benchmark file(s) ===\n`);
  for (const result of summary) process.stdout.write(`${describe(result)}\n`);
  if (failed.length > 0) {
    process.stderr.write(`bench: failed: ${failed.join(', ')}\n`);
    process.exit(1);
  }
}

// On an older Node, run again on the project's Node 22 (scripts/lib/node-version.js).
if (!require('./lib/node-version').rerunOnProjectNode()) {
  main().catch((error) => {
    process.stderr.write(`bench: ${error.message}\n`);
    process.exit(1);
  });
}
