// @ts-check
'use strict';

const fs = require('node:fs');
const net = require('node:net');

/**
 * Where the ports come from: below the kernel's ephemeral range. A port the kernel hands out for
 * `listen(0)` comes from that range, and so does the local port of every outgoing connection:
 * between this check and the app's own `listen`, a connection of any process could take it
 * (a CI run saw EADDRINUSE so). Below the range only another listener can.
 */
function candidateRange() {
  let low = 32768;
  try {
    low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // not Linux: the usual range's start
  }
  return low > 12000 ? { from: low - 12000, to: low - 1 } : null;
}

const range = candidateRange();

/** @param {number} port */
function tryListen(port) {
  return /** @type {Promise<number | null>} */ (
    new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', (/** @type {NodeJS.ErrnoException} */ error) => (error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(null) : reject(error)));
      server.listen(port, '127.0.0.1', () => {
        const { port: bound } = /** @type {net.AddressInfo} */ (server.address());
        server.close(() => resolve(bound));
      });
    })
  );
}

/** A TCP port nothing listened on a moment ago (for test services and "unreachable" addresses). */
async function freePort() {
  for (let attempt = 0; range !== null && attempt < 50; attempt++) {
    const port = await tryListen(range.from + Math.floor(Math.random() * (range.to - range.from + 1)));
    if (port !== null) return port;
  }
  return /** @type {number} */ (await tryListen(0));
}

module.exports = { freePort };
