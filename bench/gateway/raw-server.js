// The baseline: bare node:http answering the same JSON the benchmarked flow produces.
// `node bench/gateway/raw-server.js <port>` (plain JavaScript: nothing to compile).
'use strict';

const http = require('node:http');

const port = Number(process.argv[2] ?? 0);
const body = JSON.stringify({ result: 'HELLO BENCH' });

http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(port, '127.0.0.1', () => process.stdout.write(`raw server listening on ${port}\n`));
