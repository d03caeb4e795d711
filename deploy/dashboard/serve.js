#!/usr/bin/env node
// Serves the built dashboard (dist/apps/dashboard after `npm run build`) and forwards /v1 to the control plane, so
// the browser sees one origin as it does behind Vite in development. No dependencies.
//   CONTROL_PLANE_URL (http://control-plane:3000), DASHBOARD_PORT (5173), DASHBOARD_DIST (./dist)
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const port = Number(process.env.DASHBOARD_PORT ?? 5173);
const dist = path.resolve(process.env.DASHBOARD_DIST ?? path.join(__dirname, 'dist'));
const upstream = new URL(process.env.CONTROL_PLANE_URL ?? 'http://control-plane:3000');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** The dashboard is never shown inside another site's frame (clickjacking). */
const NO_FRAMING = { 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'" };

function fail(res, status, code, message) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'application/json', ...NO_FRAMING }).end(JSON.stringify({ success: false, code, message }));
}

function proxy(req, res) {
  const forward = http.request(
    { host: upstream.hostname, port: upstream.port || 80, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forward.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, code: 'unavailable', message: 'The control plane cannot be reached' }));
  });
  req.pipe(forward);
}

/** The decoded path, or null when the URL is malformed (`/%`, `/%E0%A4%A`, a NUL). */
function pathnameOf(url) {
  try {
    const pathname = decodeURIComponent(new URL(url, 'http://x').pathname);
    return pathname.includes('\0') ? null : pathname;
  } catch {
    return null;
  }
}

function serveFile(req, res) {
  const pathname = pathnameOf(req.url);
  if (pathname === null) return fail(res, 400, 'invalid_request', 'The address is not a valid URL path');
  let file = path.join(dist, path.normalize(pathname));
  if (file !== dist && !file.startsWith(dist + path.sep)) return fail(res, 400, 'invalid_request', 'The address is outside the dashboard');
  // Client-side routes fall back to the SPA's index.html.
  if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(dist, 'index.html');
  const hashed = file.includes(`${path.sep}assets${path.sep}`);
  const stream = fs.createReadStream(file);
  stream.on('error', () => fail(res, 500, 'internal_error', 'The file could not be read'));
  stream.once('open', () => {
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      ...NO_FRAMING,
    });
    stream.pipe(res);
  });
}

// No request may end the process: whatever a handler throws is answered 500 and logged.
const server = http.createServer((req, res) => {
  try {
    if (req.url === '/healthz') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    if (req.url.startsWith('/v1/') || req.url === '/v1') return proxy(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD', ...NO_FRAMING }).end();
    serveFile(req, res);
  } catch (error) {
    process.stderr.write(`dashboard: ${req.method} ${req.url} failed: ${error && error.stack ? error.stack : error}\n`);
    fail(res, 500, 'internal_error', 'The dashboard server failed on this request');
  }
});
server.on('clientError', (_error, socket) => {
  if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  else socket.destroy();
});
server.listen(port, '0.0.0.0', () => process.stdout.write(`dashboard: serving ${dist} on :${port}, /v1 → ${upstream.origin}\n`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
