#!/usr/bin/env node
// `npm run test:images`: the production images, built and run for real with podman.
//
//  1. podman, runc, debootstrap (apt when missing) and the base image node:22-slim (pulled, or
//     a local stand-in built from Debian: scripts/lib/podman.js);
//  2. builds the five images from deploy/Dockerfile.* (tags flowgate/<app>:local, as
//     docker-compose.yml names them) and prints their sizes (the gateway must stay < 250 MB);
//  3. runs the migrations and the five containers against this machine's PostgreSQL, Redis and
//     Kafka (`--network host`), on free ports (never the stack's 3000/8080/…), with a database,
//     a Redis database (TEST_IMAGES_REDIS_DB, 13), a log topic and a consumer group of their own,
//     and waits until each image's own HEALTHCHECK passes;
//  4. walks the README's flow through the containers: sign up, project, endpoint, deploy (through
//     the dashboard container's /v1 proxy), call the gateway container, read the logs;
//  5. the shutdown drill: under traffic, `podman stop` (SIGTERM) the gateway, then log-ingest
//     (a new one takes over): each must exit 0; no answer may be an error, and every answered
//     request must reach request_logs exactly once;
//  6. docker-compose.yml: read by podman-compose (`--dry-run up --no-build`), which must resolve
//     every app service to the image built here; it is not run (its postgres/redis/kafka images
//     cannot be pulled here).
// Exit code 0 when everything held. Containers, database and topics are removed at the end
// (TEST_IMAGES_KEEP=1 keeps the containers and database for a look).
'use strict';

const { spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { ensureServices, makeLog, withLock, aptInstall, has } = require('./lib/services');
const { podman, ensurePodman, ensureBaseImage } = require('./lib/podman');
const { ensureDependencies } = require('./lib/prepare');
const { freePort } = require('./lib/free-port');
const { setTimeout: sleep } = require('node:timers/promises');

const root = path.resolve(__dirname, '..');
const log = makeLog(false);
const say = (line) => process.stdout.write(`[images] ${line}\n`);

const APPS = ['control-plane', 'gateway', 'log-ingest', 'worker', 'dashboard'];
const GATEWAY_MAX_MB = 250;
const imageOf = (app) => `localhost/flowgate/${app}:local`;
const run = randomBytes(3).toString('hex');
const containerOf = (name) => `flowgate-images-${run}-${name}`;

class DrillError extends Error {}

function check(condition, message) {
  if (!condition) throw new DrillError(message);
}

// ---------------------------------------------------------------- images

/** Build options for a TLS-intercepting proxy: the host's CA bundle, mounted into the build. */
function proxyCaArgs() {
  const bundle = process.env.NODE_EXTRA_CA_CERTS;
  if (!bundle || !fs.existsSync(bundle)) return [];
  return ['--volume', `${bundle}:/run/host-ca.crt:ro`, '--build-arg', 'NODE_EXTRA_CA_CERTS=/run/host-ca.crt'];
}

function buildImages() {
  const sizes = {};
  for (const app of APPS) {
    const started = Date.now();
    say(`building ${imageOf(app)} (deploy/Dockerfile.${app})`);
    const dockerfile = `deploy/Dockerfile.${app}`;
    const built = podman(
      ['build', '--network', 'host', '--format', 'docker', ...proxyCaArgs(), '-f', dockerfile, '--ignorefile', `${dockerfile}.dockerignore`, '-t', imageOf(app), root],
      { quiet: !process.env.TEST_IMAGES_VERBOSE },
    );
    if (!built.ok) throw new DrillError(`building ${app} failed:\n${`${built.stdout}${built.stderr}`.trim().split('\n').slice(-25).join('\n')}`);
    const inspected = podman(['image', 'inspect', '--format', '{{.Size}}', imageOf(app)]);
    sizes[app] = Math.round(Number(inspected.stdout.trim()) / 1e6);
    say(`  ${app}: ${sizes[app]} MB (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  return sizes;
}

// ---------------------------------------------------------------- containers

function startContainer(name, app, env, command = []) {
  podman(['rm', '-f', containerOf(name)]);
  const args = ['run', '-d', '--name', containerOf(name), '--network', 'host', ...Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]), imageOf(app), ...command];
  const started = podman(args);
  if (!started.ok) throw new DrillError(`podman run ${app} failed: ${started.stderr.trim()}`);
  return containerOf(name);
}

function logsOf(container, lines = 30) {
  const result = podman(['logs', '--tail', String(lines), container]);
  return `${result.stdout}${result.stderr}`.trim();
}

function stateOf(container) {
  const result = podman(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', container]);
  const [status, exitCode] = result.stdout.trim().split(' ');
  return { status, exitCode: Number(exitCode) };
}

/** Waits until the image's own HEALTHCHECK passes (`podman healthcheck run`). */
async function waitHealthy(container, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (podman(['healthcheck', 'run', container]).ok) return;
    const { status, exitCode } = stateOf(container);
    if (status === 'exited') throw new DrillError(`${container} exited (${exitCode}) before it was healthy:\n${logsOf(container)}`);
    if (Date.now() > deadline) throw new DrillError(`${container} not healthy within ${timeoutMs / 1000} s:\n${logsOf(container)}`);
    await sleep(1000);
  }
}

/** `podman stop` (SIGTERM, SIGKILL after `graceSeconds`); returns the exit code and how long it took. */
function stopContainer(container, graceSeconds = 40) {
  const started = Date.now();
  podman(['stop', '--time', String(graceSeconds), container], { timeoutMs: (graceSeconds + 20) * 1000 });
  return { ...stateOf(container), seconds: (Date.now() - started) / 1000 };
}

// ---------------------------------------------------------------- HTTP

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(url, { method, agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

// ---------------------------------------------------------------- the README flow

const HELLO_FLOW = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'n1', type: 'set_variable', position: { x: 260, y: 0 }, config: { name: 'greeting', value: 'Hello {params.name}' } },
    { id: 'n2', type: 'respond', position: { x: 520, y: 0 }, config: { status: 200, body: { message: '{local.greeting}' } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'n2' },
  ],
};

async function readmeFlow(ports) {
  const api = `http://127.0.0.1:${ports.dashboard}/v1`; // through the dashboard container's proxy
  const page = await request(`http://127.0.0.1:${ports.dashboard}/`);
  check(page.status === 200 && /<div id="root">|<!doctype html>/i.test(page.text), `dashboard / answered ${page.status}`);
  const signup = await request(`${api}/auth/signup`, { method: 'POST', body: { email: `images-${run}@example.com`, password: 'correct horse battery' } });
  check(signup.status === 201 && signup.json?.token, `sign up answered ${signup.status} ${signup.text}`);
  const auth = { authorization: `Bearer ${signup.json.token}` };
  const subdomain = `images-${run}`;
  const project = await request(`${api}/projects`, { method: 'POST', headers: auth, body: { name: 'Images', subdomain } });
  check(project.status === 201, `create project answered ${project.status} ${project.text}`);
  const endpoint = await request(`${api}/projects/${project.json.id}/endpoints`, {
    method: 'POST',
    headers: auth,
    body: { name: 'Hello', method: 'GET', path: '/hello', auth: 'none', query_params: [{ key: 'name', default: 'world' }], flow: HELLO_FLOW },
  });
  check(endpoint.status === 201, `create endpoint answered ${endpoint.status} ${endpoint.text}`);
  const deploy = await request(`${api}/projects/${project.json.id}/endpoints/${endpoint.json.id}/deploy`, { method: 'POST', headers: auth });
  check(deploy.status === 200 || deploy.status === 201, `deploy answered ${deploy.status} ${deploy.text}`);
  const host = `${subdomain}.localhost:${ports.gateway}`;
  let call;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    call = await request(`http://127.0.0.1:${ports.gateway}/hello?name=Ada`, { headers: { host } });
    if (call.status === 200) break;
    await sleep(100);
  }
  check(call.status === 200 && call.json?.message === 'Hello Ada', `the gateway answered ${call.status} ${call.text}`);
  const logs = await waitFor(async () => {
    const answer = await request(`${api}/projects/${project.json.id}/logs`, { headers: auth });
    return answer.status === 200 && (answer.json?.items ?? []).some((item) => item.endpoint === '/hello' && item.status === 200) ? answer : null;
  }, 'the call in the project logs');
  say(`README flow: signed up, project ${subdomain}, endpoint deployed, gateway answered "${call.json.message}", the call is in the logs (${logs.json.items.length} entries)`);
  return { projectId: project.json.id, host };
}

async function waitFor(probe, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new DrillError(`${what}: not seen within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

// ---------------------------------------------------------------- the shutdown drill

/** Concurrent callers until `stop()`: every answer is recorded with the unique tag it carried. */
function traffic(port, host, prefix, concurrency = 12) {
  const answered = new Map(); // tag → status
  const counts = { answered: 0, ok: 0, errorAnswers: 0, refused: 0, reset: 0 };
  const wrong = [];
  let stopping = false;
  let sequence = 0;
  const loop = async () => {
    while (!stopping) {
      const tag = `${prefix}${(sequence += 1)}`;
      try {
        const answer = await request(`http://127.0.0.1:${port}/hello?name=${tag}`, { headers: { host } });
        counts.answered += 1;
        answered.set(tag, answer.status);
        if (answer.status === 200 && answer.json?.message === `Hello ${tag}`) counts.ok += 1;
        else {
          counts.errorAnswers += 1;
          if (wrong.length < 5) wrong.push(`${answer.status} ${answer.text.slice(0, 200)}`);
        }
      } catch (error) {
        if (error.code === 'ECONNREFUSED') {
          counts.refused += 1;
          await sleep(20); // nobody listens: a client would go elsewhere
        } else counts.reset += 1;
      }
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    counts,
    answered,
    wrong,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/** Waits until every tag is in request_logs (matched by its query string), once each. */
async function waitLogged(pool, projectId, tags, timeoutMs = 90_000) {
  const wanted = new Set([...tags].map((tag) => `name=${tag}`));
  let rows = [];
  await waitFor(
    async () => {
      ({ rows } = await pool.query('SELECT query, count(*)::int AS n FROM request_logs WHERE project_id = $1 AND query = ANY($2) GROUP BY query', [projectId, [...wanted]]));
      return rows.length === wanted.size;
    },
    `${wanted.size} answered requests in request_logs`,
    timeoutMs,
  ).catch((error) => {
    const seen = new Set(rows.map((row) => row.query));
    const missing = [...wanted].filter((query) => !seen.has(query));
    throw new DrillError(`${error.message}: ${missing.length} missing (e.g. ${missing.slice(0, 3).join(', ')})`);
  });
  const duplicated = rows.filter((row) => row.n > 1);
  check(duplicated.length === 0, `${duplicated.length} requests logged more than once (e.g. ${duplicated[0]?.query})`);
  return rows.length;
}

async function shutdownDrill({ ports, env, host, projectId, pool, containers }) {
  const results = {};
  // The gateway: SIGTERM while 12 callers keep it busy.
  const load = traffic(ports.gateway, host, `g${run}x`);
  await sleep(3000);
  const stopped = stopContainer(containers.gateway);
  await sleep(1500); // callers now meet a closed port
  await load.stop();
  check(stopped.exitCode === 0, `gateway exited with ${stopped.exitCode} after SIGTERM:\n${logsOf(containers.gateway)}`);
  check(load.counts.errorAnswers === 0, `gateway shutdown: ${load.counts.errorAnswers} error answers (${load.wrong.join('; ')})`);
  check(load.counts.ok > 0, 'gateway shutdown: no request was answered before the stop');
  const gatewayLogged = await waitLogged(pool, projectId, load.answered.keys());
  results.gateway = { ...load.counts, logged: gatewayLogged, exitCode: stopped.exitCode, stopSeconds: Number(stopped.seconds.toFixed(1)) };
  say(
    `gateway SIGTERM under traffic: ${load.counts.answered} answered (${load.counts.ok} correct, ${load.counts.errorAnswers} errors), ` +
      `${load.counts.refused} refused after it closed, ${load.counts.reset} cut connections; exit ${stopped.exitCode} in ${stopped.seconds.toFixed(1)} s; ${gatewayLogged}/${load.answered.size} in request_logs`,
  );

  // log-ingest: SIGTERM under traffic; a new one takes over the group; nothing lost, nothing twice.
  containers.gateway = startContainer('gateway-2', 'gateway', { ...env, GATEWAY_PORT: String(ports.gateway) });
  await waitHealthy(containers.gateway);
  const load2 = traffic(ports.gateway, host, `l${run}x`);
  await sleep(3000);
  const ingestStopped = stopContainer(containers.logIngest);
  check(ingestStopped.exitCode === 0, `log-ingest exited with ${ingestStopped.exitCode} after SIGTERM:\n${logsOf(containers.logIngest)}`);
  await sleep(2000); // the gateway keeps logging to Kafka meanwhile
  containers.logIngest = startContainer('log-ingest-2', 'log-ingest', { ...env, LOG_INGEST_PORT: String(ports.logIngest) });
  await waitHealthy(containers.logIngest);
  await sleep(2000);
  await load2.stop();
  check(load2.counts.errorAnswers === 0, `during the log-ingest stop: ${load2.counts.errorAnswers} error answers (${load2.wrong.join('; ')})`);
  const ingestLogged = await waitLogged(pool, projectId, load2.answered.keys());
  results.logIngest = { ...load2.counts, logged: ingestLogged, exitCode: ingestStopped.exitCode, stopSeconds: Number(ingestStopped.seconds.toFixed(1)) };
  say(
    `log-ingest SIGTERM under traffic: exit ${ingestStopped.exitCode} in ${ingestStopped.seconds.toFixed(1)} s; ${load2.counts.answered} answered meanwhile ` +
      `(${load2.counts.errorAnswers} errors); ${ingestLogged}/${load2.answered.size} in request_logs, none twice`,
  );
  return results;
}

// ---------------------------------------------------------------- docker-compose.yml

/**
 * Debian's podman-compose (1.0.3) has no `config` command; `--dry-run up --no-build` parses the
 * file and prints the `podman create` line of every service without starting anything (it
 * does create the project's volumes and network, removed here right after).
 */
async function validateCompose() {
  if (!has('podman-compose')) await withLock(async () => aptInstall(['podman-compose'], log, false));
  const project = `flowgate-images-${run}`;
  const result = spawnSync('podman-compose', ['-p', project, '--dry-run', '-f', path.join(root, 'docker-compose.yml'), 'up', '--no-build'], { cwd: root, encoding: 'utf8' });
  for (const volume of ['postgres-data', 'kafka-data']) spawnSync('podman', ['volume', 'rm', '-f', `${project}_${volume}`]);
  spawnSync('podman', ['network', 'rm', '-f', `${project}_default`]);
  const output = `${result.stdout}${result.stderr}`;
  check(result.status === 0, `podman-compose could not read docker-compose.yml: ${output.trim().split('\n').slice(-10).join('\n')}`);
  for (const app of APPS) {
    const line = output.split('\n').find((text) => text.startsWith('podman create') && text.includes(`com.docker.compose.service=${app} `));
    check(line?.includes(` flowgate/${app}:local`), `docker-compose.yml: service ${app} does not run flowgate/${app}:local`);
  }
  say('docker-compose.yml: podman-compose --dry-run reads it and runs the five images built here (not started: its postgres/redis/kafka images cannot be pulled here)');
}

// ---------------------------------------------------------------- main

async function main() {
  const started = Date.now();
  // This script talks to PostgreSQL and Redis itself (pg, ioredis): a fresh clone needs npm install first.
  if (ensureDependencies(say)) say('npm dependencies installed');
  await ensurePodman(log);
  const base = ensureBaseImage(log);
  say(`base image node:22-slim: ${base}`);
  const sizes = buildImages();

  const ports = { controlPlane: await freePort(), internal: await freePort(), gateway: await freePort(), logIngest: await freePort(), worker: await freePort(), dashboard: await freePort() };
  const database = `flowgate_images_${run}`;
  const adminUrl = process.env.TEST_IMAGES_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();
  const dataDatabaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}_data` }).toString();
  const redisUrl = `redis://127.0.0.1:6379/${process.env.TEST_IMAGES_REDIS_DB ?? 13}`;
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    DATA_DATABASE_URL: dataDatabaseUrl,
    REDIS_URL: redisUrl,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
    KAFKA_LOG_TOPIC: 'flowgate.images.request-logs',
    KAFKA_LOG_DLQ_TOPIC: 'flowgate.images.request-logs.dlq',
    LOG_INGEST_TOPIC_PARTITIONS: '2',
    LOG_INGEST_GROUP: `flowgate-images-${run}`,
    BULLMQ_PREFIX: 'fgimages',
    GATEWAY_DOMAIN: 'localhost',
    GATEWAY_PUBLIC_URL: `http://{subdomain}.localhost:${ports.gateway}`,
    CONTROL_PLANE_INTERNAL_URL: `http://127.0.0.1:${ports.internal}`,
    FLOWGATE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    FLOWGATE_SERVICE_TOKEN: randomBytes(24).toString('hex'),
  };
  await ensureServices({ postgres: true, redis: true, kafka: true, env: { ...process.env, ...env, DATABASE_URL: adminUrl, REDIS_URL: 'redis://127.0.0.1:6379' }, quiet: true });
  const { Redis } = require('ioredis');
  const redis = new Redis(redisUrl);
  await redis.flushdb(); // this drill's own Redis database
  redis.disconnect();
  const { Pool } = require('pg');
  const containers = {};
  let pool;
  let ok = false;
  try {
    say('migrations (control-plane image: node dist/libs/db/src/migrate.cli.js)');
    const migrated = podman(['run', '--rm', '--network', 'host', '-e', `DATABASE_URL=${databaseUrl}`, '-e', `DATA_DATABASE_URL=${dataDatabaseUrl}`, imageOf('control-plane'), 'node', 'dist/libs/db/src/migrate.cli.js']);
    check(migrated.ok, `migrations failed: ${migrated.stderr.trim()}`);
    containers.controlPlane = startContainer('control-plane', 'control-plane', {
      ...env,
      CONTROL_PLANE_PORT: String(ports.controlPlane),
      CONTROL_PLANE_INTERNAL_PORT: String(ports.internal),
    });
    containers.gateway = startContainer('gateway', 'gateway', { ...env, GATEWAY_PORT: String(ports.gateway) });
    containers.logIngest = startContainer('log-ingest', 'log-ingest', { ...env, LOG_INGEST_PORT: String(ports.logIngest) });
    containers.worker = startContainer('worker', 'worker', { ...env, WORKER_PORT: String(ports.worker) });
    containers.dashboard = startContainer('dashboard', 'dashboard', { DASHBOARD_PORT: String(ports.dashboard), CONTROL_PLANE_URL: `http://127.0.0.1:${ports.controlPlane}` });
    for (const container of Object.values(containers)) await waitHealthy(container);
    say(`five containers healthy (their HEALTHCHECKs): control plane :${ports.controlPlane}, gateway :${ports.gateway}, log-ingest :${ports.logIngest}, worker :${ports.worker}, dashboard :${ports.dashboard}`);
    for (const [name, container] of Object.entries(containers)) {
      const user = podman(['exec', container, 'id', '-u']).stdout.trim();
      check(user === '1000', `${name} runs as uid ${user}, not the node user`);
    }

    const { projectId, host } = await readmeFlow(ports);
    pool = new Pool({ connectionString: databaseUrl, max: 2 });
    const drill = await shutdownDrill({ ports, env, host, projectId, pool, containers });
    await validateCompose();

    check(sizes.gateway < GATEWAY_MAX_MB, `the gateway image is ${sizes.gateway} MB, over ${GATEWAY_MAX_MB} MB`);
    process.stdout.write(`\nimage sizes: ${APPS.map((app) => `${app} ${sizes[app]} MB`).join(', ')}\n`);
    process.stdout.write(`${JSON.stringify({ test: 'images', base, sizes_mb: sizes, drill, seconds: Math.round((Date.now() - started) / 1000) })}\n`);
    ok = true;
  } finally {
    if (pool) await pool.end();
    agent.destroy();
    if (!ok) for (const [name, container] of Object.entries(containers)) process.stderr.write(`--- ${name} (${container}) ---\n${logsOf(container, 15)}\n`);
    if (!process.env.TEST_IMAGES_KEEP) {
      for (const container of Object.values(containers)) podman(['rm', '-f', '--time', '5', container]);
      for (const name of ['gateway', 'log-ingest']) podman(['rm', '-f', containerOf(name)]);
      const admin = new Pool({ connectionString: adminUrl, max: 1 });
      for (const db of [database, `${database}_data`]) await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
  }
}

// On an older Node, run again on the project's Node 22 (scripts/lib/node-version.js).
if (!require('./lib/node-version').rerunOnProjectNode()) {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`[images] FAILED: ${error instanceof DrillError ? error.message : error.stack}\n`);
      process.exit(1);
    },
  );
}
