// @ts-check
// The machine-wide lock around starting and installing services (FLOWGATE_SERVICES_LOCK):
// several processes may ask for the services at once (npm test, Jest's global setup, a bench),
// and only one of them may start or install; the others wait, then re-check.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ServiceError, isAlive } = require('./common');
const { setTimeout: sleep } = require('node:timers/promises');

const lockFile = process.env.FLOWGATE_SERVICES_LOCK ?? path.join(os.tmpdir(), 'flowgate-services.lock');

/**
 * Runs `fn` holding the machine-wide lock; a lock whose holder died is taken over.
 * @template T
 * @param {() => T | Promise<T>} fn
 * @param {number} [timeoutMs]
 * @returns {Promise<T>}
 */
async function withLock(fn, timeoutMs = 20 * 60 * 1000) {
  const deadline = Date.now() + timeoutMs;
  let waitingSaid = false;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      let holder = NaN;
      let ageMs = 0;
      try {
        holder = Number(fs.readFileSync(lockFile, 'utf8'));
        ageMs = Date.now() - fs.statSync(lockFile).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      // An empty file is a holder between create and write; only a old one is stale.
      if ((holder && !isAlive(holder)) || (!holder && ageMs > 5000)) {
        fs.rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new ServiceError(`services: another process (pid ${holder}) holds ${lockFile} for too long`);
      if (!waitingSaid) {
        waitingSaid = true;
        process.stderr.write(`[services] waiting for process ${holder}, which is starting the services\n`);
      }
      await sleep(300);
    }
  }
  try {
    return await fn();
  } finally {
    try {
      if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.rmSync(lockFile, { force: true });
    } catch {
      // already gone
    }
  }
}

module.exports = { lockFile, withLock };
