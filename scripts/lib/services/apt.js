// @ts-check
// Installing what is missing with apt-get (PostgreSQL, Redis, Java, Maven, Chromium, Podman).
// Callers hold the machine-wide lock (./lock.js) while they install.
'use strict';

const { ServiceError, has, lastLine, run } = require('./common');

/** @typedef {import('./index').ServiceLog} ServiceLog */

/**
 * `apt-get update` then `apt-get install -y --no-install-recommends <packages>`, as root only:
 * anyone else is told the command to run.
 * @param {string[]} packages
 * @param {ServiceLog} log
 * @param {boolean} [quiet] keep apt's output unless it fails
 */
function aptInstall(packages, log, quiet) {
  if (!has('apt-get')) throw new ServiceError(`services: ${packages.join(', ')} missing and apt-get is not available — install them yourself`);
  if (process.getuid && process.getuid() !== 0) {
    throw new ServiceError(`services: ${packages.join(', ')} missing — run \`sudo apt-get install -y ${packages.join(' ')}\``);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log.step(`installing ${packages.join(', ')} with apt-get (once)`);
  const update = run('apt-get', ['update'], { quiet, env });
  if (!update.ok) throw new ServiceError(`services: apt-get update failed — ${lastLine(update.output)}`);
  const install = run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { quiet, env });
  if (!install.ok) throw new ServiceError(`services: apt-get install ${packages.join(' ')} failed — ${lastLine(install.output)}`);
}

module.exports = { aptInstall };
