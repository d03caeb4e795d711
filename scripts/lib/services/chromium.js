// @ts-check
// Chromium for the browser tests (test/browser): Debian's /usr/bin/chromium, which they drive
// with playwright-core; installed with apt (under the machine-wide lock) when missing.
'use strict';

const fs = require('node:fs');
const { aptInstall } = require('./apt');
const { ServiceError, makeLog } = require('./common');
const { withLock } = require('./lock');

const CHROMIUM = '/usr/bin/chromium';

/**
 * Resolves to the path of the Chromium binary, installing it first when it is missing.
 * @param {{ quiet?: boolean }} [options]
 */
async function ensureChromium({ quiet = false } = {}) {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  const log = makeLog(quiet);
  await withLock(async () => {
    if (!fs.existsSync(CHROMIUM)) aptInstall(['chromium'], log, quiet);
  });
  if (!fs.existsSync(CHROMIUM)) throw new ServiceError(`services: chromium was installed but ${CHROMIUM} is missing`);
  return CHROMIUM;
}

module.exports = { ensureChromium };
