// Child processes of the local stack: started in their own process group (so a terminal's
// Ctrl-C reaches only the supervisor, which then stops each child once, with SIGTERM), their
// pids recorded under .run/ (so `npm run down` finds them, whichever command started them),
// each with its start time so that a zombie or a reused pid is not taken for the service.
// Each service runs under lib/supervisor.js (the recorded pid, leader of the group), which
// starts it again when it dies after it was ready, as an orchestrator would.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { isAlive, isSameProcess, startTimeOf } = require('./liveness');
const { setTimeout: sleep } = require('node:timers/promises');

const root = path.resolve(__dirname, '..', '..');
const runDir = path.join(root, '.run');
const logDir = path.join(runDir, 'logs');

const pidFile = (name) => path.join(runDir, `${name}.pid`);
const logFile = (name) => path.join(logDir, `${name}.log`);

const COLORS = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m'];

/** The pid recorded for `name`, when that very process still runs (`<pid> <start time>` in the file). */
function recordedPid(name) {
  const [pid, startTime] = readOr(pidFile(name), '').trim().split(' ');
  return Number(pid) && isSameProcess(Number(pid), startTime) ? Number(pid) : null;
}

/** The pid a pid file still names although that process is gone (crashed or killed), else null. */
function stalePid(name) {
  const pid = Number(readOr(pidFile(name), '').trim().split(' ')[0]);
  return pid && recordedPid(name) === null ? pid : null;
}

function recordPid(name, pid) {
  fs.writeFileSync(pidFile(name), `${pid} ${startTimeOf(pid) ?? ''}`.trim() + '\n');
}

/**
 * A new run writes a fresh log; the previous one is kept as `<name>.log.1` (one generation),
 * so the stack trace of a crash survives the `npm run up` that follows it.
 */
function rotateLog(file) {
  try {
    if (fs.statSync(file).size > 0) fs.renameSync(file, `${file}.1`);
  } catch {
    // no previous log
  }
}

function readOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

const SUPERVISOR = path.join(__dirname, 'supervisor.js');

/** The pid of the service process itself (the supervisor's current child), when it runs. */
function childPid(name) {
  const pid = Number(readOr(path.join(runDir, `${name}.child.pid`), '').trim());
  return pid && isAlive(pid) ? pid : null;
}

/** True once the service's supervisor has seen it ready (from then on it restarts it). */
function supervisorSawReady(name) {
  return fs.existsSync(path.join(runDir, `${name}.supervised`));
}

/**
 * Starts one service under its supervisor. `output` 'log' appends to .run/logs/<name>.log
 * (background); 'prefix' streams each line to our stdout as `name │ line` (foreground).
 * Set `service.supervise` to false to start the command alone.
 */
function startService(service, env, { output, index = 0 }) {
  fs.mkdirSync(logDir, { recursive: true });
  rotateLog(logFile(service.name));
  const options = { cwd: service.cwd ?? root, env: { ...env, ...service.env }, detached: true };
  const supervised = service.supervise !== false;
  const command = supervised ? process.execPath : service.command;
  const args = supervised ? [SUPERVISOR, JSON.stringify({ name: service.name, command: service.command, args: service.args, readyUrl: service.readyUrl })] : service.args;
  let child;
  if (output === 'log') {
    const out = fs.openSync(logFile(service.name), 'w');
    child = spawn(command, args, { ...options, stdio: ['ignore', out, out] });
    fs.closeSync(out);
    child.unref(); // it outlives us: `npm run up` returns while it runs
  } else {
    child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const color = process.stdout.isTTY ? COLORS[index % COLORS.length] : '';
    const reset = color ? '\x1b[0m' : '';
    const label = `${color}${service.name.padEnd(13)}│${reset} `;
    // Keep the last lines too, so a crash can be explained in one line.
    const log = fs.createWriteStream(logFile(service.name));
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        process.stdout.write(`${label}${line}\n`);
        log.write(`${line}\n`);
      });
    }
    child.once('exit', () => log.end());
  }
  recordPid(service.name, child.pid);
  child.exitInfo = null;
  child.once('exit', (code, signal) => {
    child.exitInfo = { code, signal };
  });
  return child;
}

/** The last lines of a service's log. */
function logTail(name, lines = 15) {
  return readOr(logFile(name), '').trimEnd().split('\n').slice(-lines).join('\n');
}

/** The line that explains an exit: the last one that is not a JSON log record (nor the supervisor's), else the last one. */
function exitReason(name) {
  const lines = readOr(logFile(name), '').trim().split('\n').filter((line) => line && !line.startsWith('[supervisor]'));
  const plain = [...lines].reverse().find((line) => !line.startsWith('{'));
  if (plain) return plain.trim();
  const last = lines.at(-1);
  if (!last) return 'no output';
  try {
    const record = JSON.parse(last);
    return record.err?.message ?? record.msg ?? last;
  } catch {
    return last;
  }
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return isAlive(pid);
  }
}

/**
 * Stops the recorded processes of `names`: SIGTERM to each process group, SIGKILL to what is
 * left after `graceMs`. Returns the names that were running.
 */
async function stopRecorded(names, { graceMs = 20000, log = () => {} } = {}) {
  const running = names.map((name) => ({ name, pid: recordedPid(name) })).filter((p) => p.pid);
  for (const { name, pid } of running) {
    log(`stopping ${name} (pid ${pid})`);
    signalGroup(pid, 'SIGTERM');
  }
  const deadline = Date.now() + graceMs;
  while (running.some((p) => groupAlive(p.pid)) && Date.now() < deadline) await sleep(200);
  for (const { name, pid } of running) {
    if (groupAlive(pid)) {
      log(`${name} did not stop within ${graceMs / 1000} s; killing it`);
      signalGroup(pid, 'SIGKILL');
    }
  }
  // The supervisor and its service share one process group: the signals above reached both.
  for (const name of names) {
    fs.rmSync(pidFile(name), { force: true });
    fs.rmSync(path.join(runDir, `${name}.child.pid`), { force: true });
    fs.rmSync(path.join(runDir, `${name}.supervised`), { force: true });
  }
  return running.map((p) => p.name);
}

module.exports = { startService, stopRecorded, recordedPid, childPid, supervisorSawReady, stalePid, rotateLog, logTail, exitReason, logFile, runDir };
