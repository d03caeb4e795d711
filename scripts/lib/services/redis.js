// @ts-check
// Redis: used as it is when it answers a PING; when it does not, a local one is started with
// `redis-server --daemonize yes --bind 127.0.0.1 -::1 --port <port> --save "" --appendonly no`
// (pid file and log in .run/); when redis-server is not installed, `redis-server` is installed
// with apt (whose package may start a server of its own, which is then used).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { aptInstall } = require('./apt');
const { DEFAULTS, LOCAL_HOSTS, ServiceError, has, hostPort, isAlive, manageHint, probe, readFileOr, recordStarted, run, runDir, telling, waitForExit } = require('./common');
const { withLock } = require('./lock');
const { setTimeout: sleep } = require('node:timers/promises');

/** @typedef {import('./index').ServiceLog} ServiceLog */
/** @typedef {import('./common').EnsureContext} EnsureContext */
/** @typedef {NonNullable<import('./common').StartedRecord['redis']>} StartedRedis */

/**
 * One inline PING; any RESP reply (+PONG, or -NOAUTH from a protected server) means Redis answers.
 * @param {string} host
 * @param {number} port
 * @param {number} [timeoutMs]
 */
const pingRedis = (host, port, timeoutMs) =>
  probe(host, port, { timeoutMs, hello: 'PING\r\n', check: (chunk) => /^[+-]/.test(chunk.toString('latin1')) });

/**
 * Makes Redis at `url` answer (see the top of this file).
 * @param {string} url REDIS_URL
 * @param {EnsureContext} context
 * @returns {Promise<void>}
 */
async function ensureRedis(url, { log, quiet, started, manage }) {
  const { host, port } = hostPort(url, 6379, DEFAULTS.redisUrl);
  if (await pingRedis(host, port)) return log.info(`Redis answers at ${host}:${port}`);
  if (!manage || !LOCAL_HOSTS.has(host)) throw new ServiceError(`Redis is not reachable at ${host}:${port} — start it or fix REDIS_URL${manageHint(manage)}`);

  await withLock(async () => {
    if (await pingRedis(host, port)) return;
    if (!has('redis-server')) {
      aptInstall(['redis-server'], log, quiet);
      // The package may have started its own server already.
      for (let i = 0; i < 10 && !(await pingRedis(host, port)); i += 1) await sleep(300);
      if (await pingRedis(host, port)) return;
    }
    fs.mkdirSync(runDir, { recursive: true });
    const pidFile = path.join(runDir, `redis-${port}.pid`);
    log.step(`starting redis-server on 127.0.0.1:${port}`);
    const result = run(
      'redis-server',
      [
        '--daemonize', 'yes',
        '--bind', '127.0.0.1 -::1',
        '--port', String(port),
        '--save', '',
        '--appendonly', 'no',
        '--pidfile', pidFile,
        '--logfile', path.join(runDir, `redis-${port}.log`),
        '--dir', runDir,
      ],
      { quiet: true },
    );
    if (!result.ok) throw new ServiceError(`Redis on port ${port} could not be started — ${telling(result.output)}`);
    const deadline = Date.now() + 20000;
    while (!(await pingRedis(host, port))) {
      if (Date.now() > deadline) throw new ServiceError(`Redis on port ${port} did not answer within 20 s — see .run/redis-${port}.log`);
      await sleep(200);
    }
    recordStarted('redis', { port, pidFile });
    started.push('redis');
  });
}

/**
 * Stops the redis-server ensureRedis started (as recorded in .run/services.json), if it still
 * runs and is one; true when it stopped one.
 * @param {StartedRedis} record
 * @param {ServiceLog} log
 */
async function stopRedis({ port, pidFile }, log) {
  const pid = Number(readFileOr(pidFile, ''));
  if (!pid || !isAlive(pid) || !readFileOr(`/proc/${pid}/cmdline`, 'redis-server').includes('redis-server')) return false;
  log.step(`stopping the Redis we started (port ${port}, pid ${pid})`);
  process.kill(pid, 'SIGTERM');
  await waitForExit(pid, 10000);
  return true;
}

module.exports = { pingRedis, ensureRedis, stopRedis };
