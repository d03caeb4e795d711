#!/usr/bin/env node
// The local stack: `npm start` (foreground, Ctrl-C stops it), `npm run up` (background, returns
// once every service answers its readiness URL), `npm run down` (stops what we started),
// `node scripts/stack.js status`, `node scripts/stack.js env` (shell exports of the stack's
// variables, for running one app alone). `start`/`up` accept app names to run only those
// (`node scripts/stack.js up control-plane gateway`).
//
// Before the apps: npm dependencies, the Prisma client, PostgreSQL/Redis/Kafka (started or
// installed when missing, see lib/services/), the database migrations.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensureServices, stopStartedServices } = require('./lib/services');
const { stackEnv } = require('./lib/env');
const { ensureDependencies, ensurePrismaClient } = require('./lib/prepare');
const { startService, stopRecorded, recordedPid, childPid, stalePid, logTail, exitReason, logFile, supervisorSawReady } = require('./lib/processes');
const { stackServices, isReady, portTaken, urlSummary } = require('./lib/stack-services');
const { setTimeout: sleep } = require('node:timers/promises');

const root = path.resolve(__dirname, '..');
const say = (line) => process.stderr.write(`[stack] ${line}\n`);
const relative = (file) => path.relative(process.cwd(), file) || '.';

/** A failure worth one line (and an exit code of 1), not a stack trace. */
class StackError extends Error {
  constructor(message, details) {
    super(message);
    this.details = details;
  }
}

function selectServices(env, only) {
  const all = stackServices(env);
  const unknown = only.filter((name) => !all.some((s) => s.name === name));
  if (unknown.length > 0) throw new StackError(`unknown service ${unknown.join(', ')} (known: ${all.map((s) => s.name).join(', ')})`);
  return only.length > 0 ? all.filter((s) => only.includes(s.name)) : all;
}

function migrate(env) {
  say('applying database migrations');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'run-ts.js'), 'libs/db/src/migrate.cli.ts'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  for (const line of (result.stdout ?? '').split('\n').filter(Boolean)) say(`  ${line}`);
  if (result.status !== 0) {
    const lines = `${result.stderr ?? ''}`.trim().split('\n').filter(Boolean);
    throw new StackError(lines.at(-1) ?? `db:migrate exited with ${result.status ?? result.signal}`);
  }
}

/** Everything the apps need before they start; returns what this run started among the services. */
async function prepare(env, services) {
  if (ensureDependencies(say)) say('npm dependencies installed');
  ensurePrismaClient(say);
  const missing = services.filter((s) => !fs.existsSync(path.join(root, s.entry)));
  if (missing.length > 0) {
    throw new StackError(`${missing.map((s) => `${s.name} (${s.entry})`).join(', ')}: entry point missing — this checkout has no such app yet`);
  }
  // With REDIS_CLUSTER_NODES the apps use that cluster (each checks a seed at boot); no local Redis is started.
  const { started } = await ensureServices({ postgres: true, redis: !env.REDIS_CLUSTER_NODES, kafka: true, env });
  migrate(env);
  for (const service of services) {
    if (recordedPid(service.name)) continue;
    const ports = { [portVariable(service.name)]: service.port, ...(service.extraPorts ?? {}) };
    for (const [variable, port] of Object.entries(ports)) {
      if (await portTaken(port)) {
        throw new StackError(
          `${service.name}: port ${port} is already in use by another process — stop it (another Flowgate stack? \`npm run down\` in its checkout) or move ${variable}`,
        );
      }
    }
  }
  return started;
}

const portVariable = (name) => `${name.toUpperCase().replace(/-/g, '_')}_PORT`;

/**
 * Starts the services that do not run yet and waits until each answers its readiness URL.
 * Throws a StackError naming the first service that exited or never became ready.
 */
async function launch(env, services, output) {
  const children = new Map();
  services.forEach((service, index) => {
    if (recordedPid(service.name)) {
      say(`${service.name} already runs (pid ${recordedPid(service.name)})`);
      return;
    }
    const gone = stalePid(service.name);
    if (gone) say(`${service.name}: pid ${gone} of its last run is gone (crashed or killed); starting it again, its log kept as ${relative(logFile(service.name))}.1`);
    children.set(service.name, startService(service, env, { output, index }));
  });
  const timeoutMs = Number(env.STACK_READY_TIMEOUT_MS ?? 180000);
  const started = Date.now();
  const waiting = new Set(services.map((s) => s.name));
  while (waiting.size > 0) {
    for (const service of services.filter((s) => waiting.has(s.name))) {
      const child = children.get(service.name);
      if (child?.exitInfo) {
        await sleep(200); // let the last output reach the log
        const { code, signal } = child.exitInfo;
        throw new StackError(`${service.name} exited at start-up (${signal ?? `code ${code}`}): ${exitReason(service.name)}`, {
          children,
          tail: output === 'log' ? logTail(service.name) : '',
          log: logFile(service.name),
        });
      }
      // Ready once it answers and its supervisor saw it too (from then on a crash is restarted).
      if ((await isReady(service)) && (!children.has(service.name) || supervisorSawReady(service.name))) {
        waiting.delete(service.name);
        say(`${service.name} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
    }
    if (waiting.size > 0 && Date.now() - started > timeoutMs) {
      const name = [...waiting][0];
      const service = services.find((s) => s.name === name);
      throw new StackError(`${name} did not answer ${service.readyUrl} within ${timeoutMs / 1000} s`, {
        children,
        tail: logTail(name),
        log: logFile(name),
      });
    }
    if (waiting.size > 0) await sleep(500);
  }
  return children;
}

function printReady(env, services) {
  process.stdout.write(`\nFlowgate is ready:\n${urlSummary(env, services.map((s) => s.name))}\n`);
}

async function up(only) {
  const env = stackEnv();
  const services = selectServices(env, only);
  const startedServices = await prepare(env, services);
  try {
    await launch(env, services, 'log');
  } catch (error) {
    if (error.details?.children) {
      await stopRecorded([...error.details.children.keys()]);
      if (startedServices.length > 0) await stopStartedServices({ quiet: true });
    }
    throw error;
  }
  printReady(env, services);
  process.stdout.write(`Logs: ${relative(path.join(root, '.run', 'logs'))}/<service>.log (the run before: <service>.log.1)   Stop: npm run down\n`);
}

async function start(only) {
  const env = stackEnv();
  const services = selectServices(env, only);
  const startedServices = await prepare(env, services);
  let stopping = false;

  const stopAll = async (exitCode) => {
    if (stopping) return;
    stopping = true;
    say('stopping the stack');
    await stopRecorded(services.map((s) => s.name), { log: say });
    if (startedServices.length > 0) await stopStartedServices();
    process.exit(exitCode);
  };
  const onSignal = () => {
    if (!stopping) return void stopAll(0);
    say('second signal: killing the stack');
    for (const pid of services.map((s) => recordedPid(s.name)).filter(Boolean)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let children;
  try {
    children = await launch(env, services, 'prefix');
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    return stopAll(1);
  }
  printReady(env, services);
  process.stdout.write('Ctrl-C stops the stack.\n\n');
  const onExit = (name, { code, signal }) => {
    if (stopping) return;
    process.stderr.write(`${name} exited (${signal ?? `code ${code}`}): ${exitReason(name)}\n`);
    void stopAll(1);
  };
  for (const [name, child] of children) {
    if (child.exitInfo) onExit(name, child.exitInfo);
    else child.once('exit', (code, signal) => onExit(name, { code, signal }));
  }
}

async function down() {
  const env = stackEnv();
  const names = stackServices(env).map((s) => s.name);
  const stopped = await stopRecorded(names, { log: say });
  const services = await stopStartedServices();
  const all = [...stopped, ...services];
  process.stdout.write(all.length > 0 ? `stopped: ${all.join(', ')}\n` : 'nothing of ours was running\n');
}

async function status() {
  const env = stackEnv();
  for (const service of stackServices(env)) {
    const pid = recordedPid(service.name);
    const ready = await isReady(service);
    const child = pid ? childPid(service.name) : null;
    const pids = pid ? `pid ${pid}${child ? ` (service ${child})` : ''}` : 'not started by us';
    process.stdout.write(`${service.name.padEnd(14)} ${pids}  ${ready ? 'ready' : 'not ready'}  ${service.readyUrl}\n`);
  }
}

/** Shell exports of the stack's variables: `eval "$(node scripts/stack.js env)"` before running one app alone. */
function printEnv() {
  const env = stackEnv();
  const names = Object.keys(env)
    .filter((name) => /^(DATABASE_URL|REDIS_URL|KAFKA_BROKERS|NODE_ENV|GATEWAY_|CONTROL_PLANE_|LOG_INGEST_|WORKER_|DASHBOARD_|FLOWGATE_)/.test(name))
    .sort();
  for (const name of names) process.stdout.write(`export ${name}='${env[name].replace(/'/g, `'\\''`)}'\n`);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const commands = { start: () => start(rest), up: () => up(rest), down, status, env: printEnv };
  if (!commands[command]) {
    process.stderr.write('usage: node scripts/stack.js start|up|down|status|env [service…]\n');
    process.exit(2);
  }
  await commands[command]();
}

// On an older Node, run again on the project's Node 22 (scripts/lib/node-version.js).
if (!require('./lib/node-version').rerunOnProjectNode()) {
  main().catch((error) => {
    if (error.details?.tail) process.stderr.write(`--- last lines of ${relative(error.details.log)} ---\n${error.details.tail}\n---\n`);
    // One line that names the problem: StackError, ServiceError, EnvError, a failed npm install.
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}
