// Makes sure the real services Flowgate needs answer: PostgreSQL, Redis and a single-node
// Kafka (KRaft). A service that answers is used as it is; a local one that is installed but
// stopped is started; a missing one is installed with apt (PostgreSQL, Redis, Java, Maven) or
// fetched from Maven Central (the Kafka jars). Plain CommonJS with no dependency at load time,
// so it runs before `npm install` has; only the Kafka checks need kafkajs, loaded when used.
//
// Shared by `npm start`/`npm run up` (scripts/stack.js), `npm test` and Jest's global setup.
// Safe when several processes call it at once: starting and installing happen under one
// machine-wide lock file, and every step re-checks before it acts.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { isAlive } = require('./liveness');

const DEFAULTS = Object.freeze({
  databaseAdminUrl: 'postgresql://postgres@127.0.0.1:5432/postgres',
  databaseUrl: 'postgresql://postgres@127.0.0.1:5432/flowgate',
  redisUrl: 'redis://127.0.0.1:6379',
  kafkaBrokers: '127.0.0.1:9092',
});

/** The request-log topics (names as log-ingest reads them: KAFKA_LOG_TOPIC, KAFKA_LOG_DLQ_TOPIC). */
function requestLogTopics(env = process.env) {
  return [
    { topic: env.KAFKA_LOG_TOPIC || 'flowgate.request-logs', numPartitions: Number(env.LOG_INGEST_TOPIC_PARTITIONS) || 6 },
    { topic: env.KAFKA_LOG_DLQ_TOPIC || 'flowgate.request-logs.dlq', numPartitions: 1 },
  ];
}

const root = path.resolve(__dirname, '..', '..');
const runDir = path.join(root, '.run');
const kafkaDir = path.join(root, '.cache', 'kafka');
const kafkaLibs = path.join(kafkaDir, 'libs');
const kafkaData = path.join(kafkaDir, 'data');
const kafkaPidFile = path.join(runDir, 'kafka.pid');
const kafkaLog = path.join(kafkaDir, 'server.log');
const startedFile = path.join(runDir, 'services.json');
const lockFile = process.env.FLOWGATE_SERVICES_LOCK ?? path.join(os.tmpdir(), 'flowgate-services.lock');

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '0.0.0.0']);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
  constructor(message) {
    super(message);
    this.name = 'ServiceError';
  }
}

function hostPort(url, defaultPort) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new ServiceError(`not a URL: "${url}" (e.g. ${DEFAULTS.databaseUrl})`);
  }
  return { host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(parsed.port) || defaultPort };
}

function parseBroker(broker) {
  const index = broker.lastIndexOf(':');
  return { host: broker.slice(0, index).replace(/^\[|\]$/g, ''), port: Number(broker.slice(index + 1)) };
}

/**
 * Connects and resolves true when `check` says the peer answered: on connect alone for a
 * plain TCP probe, or on the first bytes of a reply after `hello` was sent.
 */
function probe(host, port, { hello, check, timeoutMs = 1500 } = {}) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
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

const probeTcp = (host, port, timeoutMs) => probe(host, port, { timeoutMs });

/** One inline PING; any RESP reply (+PONG, or -NOAUTH from a protected server) means Redis answers. */
const pingRedis = (host, port, timeoutMs) =>
  probe(host, port, { timeoutMs, hello: 'PING\r\n', check: (chunk) => /^[+-]/.test(chunk.toString('latin1')) });

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

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

function lastLine(text) {
  return (text ?? '').trim().split('\n').filter(Boolean).pop() ?? '';
}

/** The most telling line of a failed command's output (a FATAL/error line before a generic last one). */
function telling(text) {
  const lines = (text ?? '').trim().split('\n').filter(Boolean);
  const reversed = [...lines].reverse();
  const line = [/FATAL|ERROR/, /invalid|could not|denied|No space/i].map((re) => reversed.find((l) => re.test(l))).find(Boolean);
  return (line ?? lines.at(-1) ?? '').replace(/^.*?\b(FATAL|ERROR):\s*/, '').trim();
}

function readJson(file, fallback) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return fallback;
  }
}

/** Remembers which system services we started, so `npm run down` stops only those. */
function recordStarted(kind, details) {
  fs.mkdirSync(runDir, { recursive: true });
  const started = readJson(startedFile, {});
  started[kind] = details;
  fs.writeFileSync(startedFile, `${JSON.stringify(started, null, 2)}\n`);
}

/** Runs `fn` holding the machine-wide lock; a lock whose holder died is taken over. */
async function withLock(fn, timeoutMs = 20 * 60 * 1000) {
  const deadline = Date.now() + timeoutMs;
  let waitingSaid = false;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
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

const hint = (manage) => (manage ? '' : ' (FLOWGATE_MANAGE_SERVICES=false: the scripts start nothing)');

// ---------------------------------------------------------------- PostgreSQL

async function postgresAnswers(host, port) {
  if (!(await probeTcp(host, port))) return false;
  // A server that accepts TCP may still be starting up or shutting down.
  if (!has('pg_isready')) return true;
  return spawnSync('pg_isready', ['-q', '-h', host, '-p', String(port), '-t', '2'], { stdio: 'ignore' }).status === 0;
}

function listClusters() {
  const result = spawnSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  if (result.status !== 0) return [];
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [version, name, port, status, owner, dataDir] = line.trim().split(/\s+/);
      return { version, name, port: Number(port), status, owner, dataDir };
    });
}

/** After an apt install: let local TCP clients in without a password, as the dev and CI machines do. */
function trustLocalTcp(cluster, log) {
  const hba = `/etc/postgresql/${cluster.version}/${cluster.name}/pg_hba.conf`;
  if (!fs.existsSync(hba)) return;
  const text = fs.readFileSync(hba, 'utf8');
  if (/^host\s+all\s+all\s+127\.0\.0\.1\/32\s+trust/m.test(text)) return;
  log.step(`allowing trust auth for local TCP in ${hba}`);
  fs.writeFileSync(hba, `# added by Flowgate (scripts/lib/services.js) for local development\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n${text}`);
}

async function ensurePostgres(url, { log, quiet, started, manage }) {
  const { host, port } = hostPort(url, 5432);
  if (await postgresAnswers(host, port)) return log.info(`PostgreSQL answers at ${host}:${port}`);
  if (!manage || !LOCAL_HOSTS.has(host)) throw new ServiceError(`PostgreSQL is not reachable at ${host}:${port} — start it or fix DATABASE_URL${hint(manage)}`);

  await withLock(async () => {
    if (await postgresAnswers(host, port)) return;
    let installedNow = false;
    if (!has('pg_lsclusters')) {
      aptInstall(['postgresql'], log, quiet);
      installedNow = true;
    }
    let cluster = listClusters().find((c) => c.port === port);
    if (!cluster) {
      const clusters = listClusters();
      throw new ServiceError(
        `PostgreSQL has no cluster on port ${port} (clusters: ${clusters.map((c) => `${c.version}/${c.name}:${c.port}`).join(', ') || 'none'}) — create one with pg_createcluster or fix DATABASE_URL`,
      );
    }
    if (installedNow) trustLocalTcp(cluster, log);
    cluster = listClusters().find((c) => c.port === port);
    if (cluster.status !== 'online') {
      log.step(`starting PostgreSQL ${cluster.version}/${cluster.name} on port ${port}`);
      const result = run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, 'start'], { quiet: true });
      const logFile = `/var/log/postgresql/postgresql-${cluster.version}-${cluster.name}.log`;
      if (!result.ok) {
        throw new ServiceError(`PostgreSQL ${cluster.version}/${cluster.name} on port ${port} is stopped and could not be started — ${telling(`${result.output}\n${tailOf(logFile, 20)}`)} (log: ${logFile})`);
      }
      recordStarted('postgres', { version: cluster.version, cluster: cluster.name, port });
      started.push('postgres');
    } else if (installedNow) {
      run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, 'reload'], { quiet: true });
      recordStarted('postgres', { version: cluster.version, cluster: cluster.name, port });
      started.push('postgres');
    }
    const deadline = Date.now() + 60000;
    while (!(await postgresAnswers(host, port))) {
      if (Date.now() > deadline) throw new ServiceError(`PostgreSQL on port ${port} did not become ready within 60 s — see /var/log/postgresql/`);
      await sleep(300);
    }
  });
}

// ---------------------------------------------------------------- Redis

async function ensureRedis(url, { log, quiet, started, manage }) {
  const { host, port } = hostPort(url, 6379);
  if (await pingRedis(host, port)) return log.info(`Redis answers at ${host}:${port}`);
  if (!manage || !LOCAL_HOSTS.has(host)) throw new ServiceError(`Redis is not reachable at ${host}:${port} — start it or fix REDIS_URL${hint(manage)}`);

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

// ---------------------------------------------------------------- Kafka

function kafkaClient(brokers) {
  const { Kafka, logLevel } = require('kafkajs');
  return new Kafka({
    clientId: 'flowgate-services',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2000,
    requestTimeout: 5000,
    retry: { retries: 0 },
  });
}

/** True when a broker answers a metadata request (not merely accepts TCP). */
async function kafkaAnswers(brokers) {
  if (!(await Promise.all(brokers.map((b) => probeTcp(parseBroker(b).host, parseBroker(b).port)))).some(Boolean)) return false;
  const admin = kafkaClient(brokers).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0 && cluster.controller !== null && cluster.controller !== -1;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

async function ensureTopics(brokers, topics, log) {
  const admin = kafkaClient(brokers).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) {
      log.info(`creating Kafka topics ${missing.map((t) => `${t.topic} (${t.numPartitions})`).join(', ')}`);
      await admin.createTopics({
        topics: missing.map((t) => ({ topic: t.topic, numPartitions: t.numPartitions, replicationFactor: 1 })),
        waitForLeaders: true,
      });
    }
    // A topic made by auto-creation may have fewer partitions than the design wants.
    const metadata = await admin.fetchTopicMetadata({ topics: topics.map((t) => t.topic) });
    for (const t of topics) {
      const found = metadata.topics.find((m) => m.name === t.topic);
      if (found && found.partitions.length < t.numPartitions) {
        log.step(`growing ${t.topic} to ${t.numPartitions} partitions`);
        await admin.createPartitions({ topicPartitions: [{ topic: t.topic, count: t.numPartitions }] });
      }
    }
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

function kafkaPid() {
  const pid = Number(readFileOr(kafkaPidFile, ''));
  if (!pid || !isAlive(pid)) return null;
  // Guard against a recycled pid: only a JVM running kafka.Kafka is ours.
  const cmdline = readFileOr(`/proc/${pid}/cmdline`, 'kafka.Kafka');
  return cmdline.includes('kafka.Kafka') ? pid : null;
}

function readFileOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

const hasBrokerJar = () => fs.existsSync(kafkaLibs) && fs.readdirSync(kafkaLibs).some((f) => /^kafka_2\.13-.*\.jar$/.test(f));
const kafkaJarsPresent = () => fs.existsSync(path.join(kafkaLibs, '.complete')) && hasBrokerJar();

/** The broker jars in .cache/kafka/libs, fetched with Maven from Maven Central when missing. */
function ensureKafkaJars(log = makeLog(false), quiet = false) {
  const marker = path.join(kafkaLibs, '.complete');
  if (kafkaJarsPresent()) return;
  if (!has('mvn')) aptInstall(['maven'], log, quiet);
  log.step('fetching the Apache Kafka jars from Maven Central into .cache/kafka/libs (once)');
  const fetched = run(
    'mvn',
    ['-q', '-B', '-f', path.join(root, 'deploy', 'kafka', 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${kafkaLibs}`],
    { quiet: true },
  );
  if (!fetched.ok || !hasBrokerJar()) throw new ServiceError(`Kafka jars could not be fetched with Maven — ${lastLine(fetched.output) || 'no kafka_2.13 jar'}`);
  fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
}

function kafkaUuid() {
  // Kafka's Uuid.randomUuid(): 16 random bytes, URL-safe base64 without padding, never starting with '-'.
  for (;;) {
    const id = crypto.randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function writeKafkaConfig(port) {
  const controllerPort = Number(process.env.KAFKA_CONTROLLER_PORT ?? port + 1);
  const properties = [
    '# Generated by scripts/lib/services.js: one combined broker+controller for local development.',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'inter.broker.listener.name=PLAINTEXT',
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${kafkaData}`,
    'num.partitions=1',
    'auto.create.topics.enable=true',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=10',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    'log.retention.hours=24',
    'log.segment.bytes=67108864',
    '',
  ].join('\n');
  const serverProperties = path.join(kafkaDir, 'server.properties');
  fs.writeFileSync(serverProperties, properties);
  const log4j = path.join(kafkaDir, 'log4j2.properties');
  fs.writeFileSync(
    log4j,
    [
      'status = warn',
      'appender.out.type = Console',
      'appender.out.name = OUT',
      'appender.out.layout.type = PatternLayout',
      'appender.out.layout.pattern = [%d] %p %m (%c)%n',
      // Warnings and errors only, plus the line that says the server started.
      'rootLogger.level = WARN',
      'rootLogger.appenderRef.out.ref = OUT',
      'logger.started.name = kafka.server.KafkaRaftServer',
      'logger.started.level = INFO',
      '',
    ].join('\n'),
  );
  return { serverProperties, log4j };
}

function formatKafkaStorage(serverProperties, log, quiet) {
  if (fs.existsSync(path.join(kafkaData, 'meta.properties'))) return;
  const idFile = path.join(kafkaDir, 'cluster-id');
  let clusterId = readFileOr(idFile, '').trim();
  if (!clusterId) {
    clusterId = kafkaUuid();
    fs.writeFileSync(idFile, `${clusterId}\n`);
  }
  log.step(`formatting the KRaft storage in .cache/kafka/data (cluster ${clusterId})`);
  const formatted = run(
    'java',
    ['-cp', `${kafkaLibs}/*`, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', serverProperties, '--ignore-formatted'],
    { quiet: true },
  );
  if (!formatted.ok) throw new ServiceError(`Kafka storage could not be formatted — ${lastLine(formatted.output)}`);
  void quiet;
}

function tailOf(file, lines = 20) {
  return readFileOr(file, '').trimEnd().split('\n').slice(-lines).join('\n');
}

async function startKafka(port, log, quiet) {
  if (!has('java')) aptInstall(['openjdk-17-jre-headless'], log, quiet);
  ensureKafkaJars(log, quiet);
  fs.mkdirSync(kafkaData, { recursive: true });
  fs.mkdirSync(runDir, { recursive: true });
  const { serverProperties, log4j } = writeKafkaConfig(port);
  formatKafkaStorage(serverProperties, log, quiet);

  log.step(`starting Kafka (KRaft, single node) on 127.0.0.1:${port}; log in .cache/kafka/server.log`);
  const heap = (process.env.KAFKA_HEAP_OPTS ?? '-Xmx512m -Xms128m').split(/\s+/).filter(Boolean);
  const out = fs.openSync(kafkaLog, 'w');
  const child = spawn(
    'java',
    [
      ...heap,
      '-XX:+UseG1GC',
      '-XX:MaxGCPauseMillis=20',
      '-Djava.awt.headless=true',
      `-Dlog4j2.configurationFile=${log4j}`,
      `-Dkafka.logs.dir=${kafkaDir}`,
      '-cp',
      `${kafkaLibs}/*`,
      'kafka.Kafka',
      serverProperties,
    ],
    { cwd: root, detached: true, stdio: ['ignore', out, out] },
  );
  fs.closeSync(out);
  child.unref();
  fs.writeFileSync(kafkaPidFile, `${child.pid}\n`);
  return child.pid;
}

async function ensureKafka(brokersText, topics, { log, quiet, started, manage }) {
  const brokers = brokersText.split(',').map((b) => b.trim()).filter(Boolean);
  if (await kafkaAnswers(brokers)) {
    log.info(`Kafka answers at ${brokers.join(',')}`);
    // Kept in every checkout even when another one's broker serves: tests that run a
    // private broker (test/faults) use these jars.
    if (manage && !kafkaJarsPresent()) {
      await withLock(async () => ensureKafkaJars(log, quiet)).catch((error) => log.step(`warning: ${error.message}`));
    }
    return ensureTopics(brokers, topics, log);
  }
  const local = brokers.map(parseBroker).find((b) => LOCAL_HOSTS.has(b.host));
  if (!manage || !local) throw new ServiceError(`Kafka is not reachable at ${brokers.join(',')} — start it or fix KAFKA_BROKERS${hint(manage)}`);

  await withLock(async () => {
    let pid = kafkaPid();
    if (!(await kafkaAnswers(brokers))) {
      if (!pid && (await probeTcp(local.host, local.port))) {
        // Someone else's broker is starting on that port: give it time rather than racing it.
        log.step(`waiting for the Kafka broker already listening on ${local.host}:${local.port}`);
      } else if (!pid) {
        pid = await startKafka(local.port, log, quiet);
        started.push('kafka');
      }
      const deadline = Date.now() + Number(process.env.KAFKA_START_TIMEOUT_MS ?? 120000);
      while (!(await kafkaAnswers(brokers))) {
        if (pid && !isAlive(pid)) {
          const lines = tailOf(kafkaLog, 200).split('\n');
          const reason = lines.reverse().find((l) => /ERROR|Exception/.test(l)) ?? lines[0] ?? 'no log';
          throw new ServiceError(`Kafka exited at start-up — ${reason.trim()} (see .cache/kafka/server.log)`);
        }
        if (Date.now() > deadline) throw new ServiceError(`Kafka did not answer on ${local.host}:${local.port} in time — see .cache/kafka/server.log`);
        await sleep(500);
      }
    }
    await ensureTopics(brokers, topics, log);
  });
}

/**
 * Makes the requested services answer. Addresses come from `options`, else DATABASE_URL,
 * REDIS_URL and KAFKA_BROKERS of `options.env` (default: process.env), else DEFAULTS. Resolves to the addresses and `started` (what
 * this call started). Throws a ServiceError with a one-line message.
 */
async function ensureServices(options = {}) {
  const { postgres = false, redis = false, kafka = false, quiet = false } = options;
  const log = makeLog(quiet);
  const env = options.env ?? process.env;
  const databaseUrl = options.databaseUrl ?? env.DATABASE_URL ?? DEFAULTS.databaseUrl;
  const redisUrl = options.redisUrl ?? env.REDIS_URL ?? DEFAULTS.redisUrl;
  const kafkaBrokers = options.kafkaBrokers ?? env.KAFKA_BROKERS ?? DEFAULTS.kafkaBrokers;
  const started = [];
  // FLOWGATE_MANAGE_SERVICES=false: only check; never start or install anything.
  const manage = options.manage ?? env.FLOWGATE_MANAGE_SERVICES !== 'false';
  const context = { log, quiet, started, manage };
  if (postgres) await ensurePostgres(databaseUrl, context);
  if (redis) await ensureRedis(redisUrl, context);
  if (kafka) await ensureKafka(kafkaBrokers, options.topics ?? requestLogTopics(env), context);
  return { databaseUrl, redisUrl, kafkaBrokers, started };
}

async function waitForExit(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
  return true;
}

/**
 * Stops what ensureServices started from this checkout: the Kafka broker, and PostgreSQL or
 * Redis only when they were stopped before we started them. Returns what it stopped.
 */
async function stopStartedServices({ quiet = false } = {}) {
  const log = makeLog(quiet);
  const stopped = [];
  const pid = kafkaPid();
  if (pid) {
    log.step(`stopping Kafka (pid ${pid})`);
    process.kill(pid, 'SIGTERM');
    if (!(await waitForExit(pid, 30000))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5000);
    }
    stopped.push('kafka');
  }
  fs.rmSync(kafkaPidFile, { force: true });

  const started = readJson(startedFile, {});
  if (started.redis) {
    const redisPid = Number(readFileOr(started.redis.pidFile, ''));
    if (redisPid && isAlive(redisPid) && readFileOr(`/proc/${redisPid}/cmdline`, 'redis-server').includes('redis-server')) {
      log.step(`stopping the Redis we started (port ${started.redis.port}, pid ${redisPid})`);
      process.kill(redisPid, 'SIGTERM');
      await waitForExit(redisPid, 10000);
      stopped.push('redis');
    }
  }
  if (started.postgres) {
    const { version, cluster, port } = started.postgres;
    log.step(`stopping the PostgreSQL we started (${version}/${cluster}, port ${port})`);
    const result = run('pg_ctlcluster', ['--skip-systemctl-redirect', version, cluster, 'stop'], { quiet: true });
    if (result.ok) stopped.push('postgres');
  }
  fs.rmSync(startedFile, { force: true });
  return stopped;
}

// ---------------------------------------------------------------- Chromium (browser tests)

const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, which the browser tests drive with playwright-core; installed with apt when missing. */
async function ensureChromium({ quiet = false } = {}) {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  const log = makeLog(quiet);
  await withLock(async () => {
    if (!fs.existsSync(CHROMIUM)) aptInstall(['chromium'], log, quiet);
  });
  if (!fs.existsSync(CHROMIUM)) throw new ServiceError(`services: chromium was installed but ${CHROMIUM} is missing`);
  return CHROMIUM;
}

module.exports = {
  DEFAULTS,
  requestLogTopics,
  ServiceError,
  ensureServices,
  ensureChromium,
  stopStartedServices,
  // For scripts/lib/podman.js (npm run test:images): apt installs under the machine-wide lock.
  aptInstall,
  withLock,
  has,
  makeLog,
  probeTcp,
  pingRedis,
  kafkaAnswers,
  ensureKafkaJars,
  isAlive,
  paths: { root, runDir, kafkaDir, kafkaLog, kafkaPidFile, startedFile, lockFile },
};
