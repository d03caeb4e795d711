// @ts-check
// Makes sure the real services Flowgate needs answer: PostgreSQL, Redis and a single-node
// Kafka (KRaft). A service that answers is used as it is; a local one that is installed but
// stopped is started; a missing one is installed with apt (PostgreSQL, Redis, Java, Maven) or
// fetched from Maven Central (the Kafka jars). Plain CommonJS with no dependency at load time,
// so it runs before `npm install` has; only the Kafka checks need kafkajs, loaded when used.
//
// Shared by `npm start`/`npm run up` (scripts/stack.js), `npm test` and Jest's global setup.
// Safe when several processes call it at once: starting and installing happen under one
// machine-wide lock file (./lock.js), and every step re-checks before it acts.
//
// One module per service — ./postgres.js, ./redis.js, ./kafka.js (+ ./kafka-broker.js),
// ./chromium.js — over ./common.js, ./lock.js and ./apt.js. This file is the public API; its
// types are ./index.d.ts, which TypeScript callers get with `import … from '…/scripts/lib/services'`.
'use strict';

const fs = require('node:fs');
const { aptInstall } = require('./apt');
const { ensureChromium } = require('./chromium');
const { DEFAULTS, ServiceError, has, isAlive, makeLog, probeTcp, readStarted, root, runDir, startedFile } = require('./common');
const { ensureKafka, ensureKafkaJars, kafkaAnswers, requestLogTopics, stopKafka } = require('./kafka');
const { BROKER_TUNING, KAFKA_JVM_OPTS_DEFAULT, kafkaDir, kafkaLog, kafkaPidFile } = require('./kafka-broker');
const { lockFile, withLock } = require('./lock');
const { ensurePostgres, stopPostgres } = require('./postgres');
const { ensureRedis, pingRedis, stopRedis } = require('./redis');

/** @typedef {import('./index').EnsureServicesOptions} EnsureServicesOptions */
/** @typedef {import('./index').EnsuredServices} EnsuredServices */
/** @typedef {import('./index').ServiceName} ServiceName */

/**
 * Makes the requested services answer. Addresses come from `options`, else DATABASE_URL,
 * REDIS_URL and KAFKA_BROKERS of `options.env` (default: process.env), else DEFAULTS. Resolves to the addresses and `started` (what
 * this call started). Throws a ServiceError with a one-line message.
 * @param {EnsureServicesOptions} [options]
 * @returns {Promise<EnsuredServices>}
 */
async function ensureServices(options = {}) {
  const { postgres = false, redis = false, kafka = false, quiet = false } = options;
  const log = makeLog(quiet);
  const env = options.env ?? process.env;
  const databaseUrl = options.databaseUrl ?? env.DATABASE_URL ?? DEFAULTS.databaseUrl;
  const redisUrl = options.redisUrl ?? env.REDIS_URL ?? DEFAULTS.redisUrl;
  const kafkaBrokers = options.kafkaBrokers ?? env.KAFKA_BROKERS ?? DEFAULTS.kafkaBrokers;
  /** @type {ServiceName[]} */
  const started = [];
  // FLOWGATE_MANAGE_SERVICES=false: only check; never start or install anything.
  const manage = options.manage ?? env.FLOWGATE_MANAGE_SERVICES !== 'false';
  const context = { log, quiet, started, manage };
  if (postgres) await ensurePostgres(databaseUrl, context);
  if (redis) await ensureRedis(redisUrl, context);
  if (kafka) await ensureKafka(kafkaBrokers, options.topics ?? requestLogTopics(env), context);
  return { databaseUrl, redisUrl, kafkaBrokers, started };
}

/**
 * Stops what ensureServices started from this checkout: the Kafka broker, and PostgreSQL or
 * Redis only when they were stopped before we started them. Returns what it stopped.
 * @param {{ quiet?: boolean }} [options]
 * @returns {Promise<ServiceName[]>}
 */
async function stopStartedServices({ quiet = false } = {}) {
  const log = makeLog(quiet);
  /** @type {ServiceName[]} */
  const stopped = [];
  if (await stopKafka(log)) stopped.push('kafka');
  const started = readStarted();
  if (started.redis && (await stopRedis(started.redis, log))) stopped.push('redis');
  if (started.postgres && stopPostgres(started.postgres, log)) stopped.push('postgres');
  fs.rmSync(startedFile, { force: true });
  return stopped;
}

// `satisfies` holds this object to ./index.d.ts: a missing, extra or differently typed export fails `npm run typecheck`.
module.exports = /** @satisfies {typeof import('./index')} */ ({
  DEFAULTS,
  requestLogTopics,
  ServiceError,
  ensureServices,
  ensureChromium,
  stopStartedServices,
  // For scripts/lib/podman.js and scripts/test-images.js (npm run test:images): apt installs under the machine-wide lock.
  aptInstall,
  withLock,
  has,
  makeLog,
  probeTcp,
  pingRedis,
  kafkaAnswers,
  ensureKafkaJars,
  // For the fault drills' private brokers (test/faults/support/private-kafka.ts): the same tuning.
  BROKER_TUNING,
  KAFKA_JVM_OPTS_DEFAULT,
  isAlive,
  paths: { root, runDir, kafkaDir, kafkaLog, kafkaPidFile, startedFile, lockFile },
});
