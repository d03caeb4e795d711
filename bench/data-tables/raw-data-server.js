// The baseline of the data-tables bench: bare node:http + pg running the same statements the
// table blocks run, on the same table, with a pool of the same size, answering the same JSON.
// `node bench/data-tables/raw-data-server.js <port>`; BENCH_RAW_CONFIG holds {url, poolSize, select, from}.
'use strict';

const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { Pool } = require('pg');

const port = Number(process.argv[2] ?? 0);
const { url, poolSize, select, from } = JSON.parse(process.env.BENCH_RAW_CONFIG);
const pool = new Pool({ connectionString: url, max: poolSize, application_name: 'flowgate-bench-raw' });

const answer = (res, status, value) => {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

http
  .createServer((req, res) => {
    const target = new URL(req.url, 'http://raw');
    let work;
    if (req.method === 'GET' && target.pathname === '/person') {
      work = pool.query(`SELECT ${select} FROM ${from} WHERE "id" = $1`, [target.searchParams.get('id')]).then(({ rows }) => ({ row: rows[0] ?? null }));
    } else if (req.method === 'GET' && target.pathname === '/people') {
      work = pool
        .query(`SELECT ${select} FROM ${from} WHERE "score" = $1::double precision ORDER BY "id" ASC LIMIT $2`, [Number(target.searchParams.get('score')), 10])
        .then(({ rows }) => ({ rows }));
    } else if (req.method === 'POST' && target.pathname === '/people') {
      const chunks = [];
      work = new Promise((resolve) => {
        req.on('data', (chunk) => chunks.push(chunk));
        req.on('end', resolve);
      }).then(() => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        return pool
          .query(`INSERT INTO ${from} ("id", "email", "score", "name") VALUES ($1, $2, $3, $4) RETURNING ${select}`, [randomUUID(), body.email, body.score, body.name])
          .then(({ rows }) => rows[0]);
      });
    } else {
      return answer(res, 404, { code: 'not_found' });
    }
    work.then(
      (value) => answer(res, 200, value),
      (error) => answer(res, 500, { code: 'error', message: error.message }),
    );
  })
  .listen(port, '127.0.0.1', () => process.stdout.write(`raw data server listening on ${port}\n`));
