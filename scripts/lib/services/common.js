// @ts-check
// What the service modules share: the one-line ServiceError, the [services] log, running a
// command, reading the files a command or a server left behind, probing a port, and the record
// of what was started from this checkout (.run/services.json).
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { isAlive } = require('../liveness');
const { setTimeout: sleep } = require('node:timers/promises');

/** @typedef {import('./index').ServiceLog} ServiceLog */
/** @typedef {import('./index').ServiceName} ServiceName */

/**
 * What every `ensure…` of a service is given by ensureServices.
 * @typedef {object} EnsureContext
 * @property {ServiceLog} log
 * @property {boolean} quiet
 * @property {ServiceName[]} started what this call started; each ensure… adds its own
 * @property {boolean} manage false: only check, start and install nothing
 */

/**
 * .run/services.json: the system services started from this checkout, which `npm run down` stops.
 * @typedef {object} StartedRecord
 * @property {{ version: string, cluster: string, port: number }} [postgres]
 * @property {{ port: number, pidFile: string }} [redis]
 */

/** @type {typeof import('./index').DEFAULTS} */
const DEFAULTS = Object.freeze({
  databaseAdminUrl: 'postgresql://postgres@127.0.0.1:5432/postgres',
  databaseUrl: 'postgresql://postgres@127.0.0.1:5432/flowgate',
  redisUrl: 'redis://127.0.0.1:6379',
  kafkaBrokers: '127.0.0.1:9092',
});

const root = path.resolve(__dirname, '..', '..', '..');
const runDir = path.join(root, '.run');
const startedFile = path.join(runDir, 'services.json');

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '0.0.0.0']);

/** @param {number} ms */

/**
 * @param {boolean} [quiet]
 * @returns {ServiceLog}
 */
function makeLog(quiet) {
  return {
    // Progress of something that takes time (starting, installing): always shown.
    step: (message) => process.stderr.write(`[services] ${message}\n`),
    // "Already fine" notes: hidden when quiet.
    info: (message) => {
      if (!quiet) process.stderr.write(`[services] ${message}\n`);
    },
  };
}

/** Error whose message is the one line a caller prints before exiting non-zero. */
class ServiceError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** @param {boolean} manage */
const manageHint = (manage) => (manage ? '' : ' (FLOWGATE_MANAGE_SERVICES=false: the scripts start nothing)');

/**
 * The host and port of a service URL (`postgresql://…`, `redis://…`).
 * @param {string} url
 * @param {number} defaultPort
 * @param {string} example shown when `url` is not a URL
 */
function hostPort(url, defaultPort, example) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new ServiceError(`not a URL: "${url}" (e.g. ${example})`);
  }
  return { host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(parsed.port) || defaultPort };
}

/**
 * Connects and resolves true when `check` says the peer answered: on connect alone for a
 * plain TCP probe, or on the first bytes of a reply after `hello` was sent.
 * @param {string} host
 * @param {number} port
 * @param {{ hello?: string, check?: (chunk: Buffer) => boolean, timeoutMs?: number }} [options]
 * @returns {Promise<boolean>}
 */
function probe(host, port, { hello, check, timeoutMs = 1500 } = {}) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    /** @param {boolean} ok */
    const done = (ok) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => (hello ? socket.write(hello) : done(true)));
    socket.once('data', (chunk) => done(check ? check(chunk) : true));
    socket.once('error', () => done(false));
  });
}

/**
 * @param {string} host
 * @param {number} port
 * @param {number} [timeoutMs]
 */
const probeTcp = (host, port, timeoutMs) => probe(host, port, { timeoutMs });

/** @param {string} command */
function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Runs a command to its end; `quiet` keeps its output for the error message instead of showing it.
 * @param {string} command
 * @param {string[]} args
 * @param {{ quiet?: boolean, env?: NodeJS.ProcessEnv, cwd?: string }} [options]
 * @returns {{ ok: boolean, output: string }}
 */
function run(command, args, { quiet = false, env, cwd = root } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: env ?? process.env,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    encoding: 'utf8',
  });
  if (result.error) return { ok: false, output: String(result.error.message) };
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** @param {string | undefined} text */
function lastLine(text) {
  return (text ?? '').trim().split('\n').filter(Boolean).pop() ?? '';
}

/**
 * The most telling line of a failed command's output (a FATAL/error line before a generic last one).
 * @param {string | undefined} text
 */
function telling(text) {
  const lines = (text ?? '').trim().split('\n').filter(Boolean);
  const reversed = [...lines].reverse();
  const line = [/FATAL|ERROR/, /invalid|could not|denied|No space/i].map((re) => reversed.find((l) => re.test(l))).find(Boolean);
  return (line ?? lines.at(-1) ?? '').replace(/^.*?\b(FATAL|ERROR):\s*/, '').trim();
}

/**
 * @param {string} file
 * @param {string} fallback
 */
function readFileOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/**
 * The last `lines` lines of a log file ('' when there is none).
 * @param {string} file
 * @param {number} [lines]
 */
function tailOf(file, lines = 20) {
  return readFileOr(file, '').trimEnd().split('\n').slice(-lines).join('\n');
}

/** @returns {StartedRecord} */
function readStarted() {
  try {
    return JSON.parse(fs.readFileSync(startedFile, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Remembers which system services we started, so `npm run down` stops only those.
 * @template {keyof StartedRecord} K
 * @param {K} kind
 * @param {NonNullable<StartedRecord[K]>} details
 */
function recordStarted(kind, details) {
  fs.mkdirSync(runDir, { recursive: true });
  const started = readStarted();
  started[kind] = details;
  fs.writeFileSync(startedFile, `${JSON.stringify(started, null, 2)}\n`);
}

/**
 * Resolves true once `pid` has gone, false when it still runs after `timeoutMs`.
 * @param {number} pid
 * @param {number} timeoutMs
 */
async function waitForExit(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
  return true;
}

module.exports = {
  DEFAULTS,
  root,
  runDir,
  startedFile,
  LOCAL_HOSTS,
  makeLog,
  ServiceError,
  manageHint,
  hostPort,
  probe,
  probeTcp,
  has,
  run,
  lastLine,
  telling,
  readFileOr,
  tailOf,
  readStarted,
  recordStarted,
  waitForExit,
  isAlive,
};
