// @ts-check
// Kafka: a broker that answers a metadata request is used as it is (the request-log topics are
// created or grown on it); when none answers at a local address, the broker of this checkout is
// started (./kafka-broker.js) and waited for. kafkajs is loaded only when a check runs, so the
// rest of the scripts work before `npm install` has.
'use strict';

const fs = require('node:fs');
const { LOCAL_HOSTS, ServiceError, isAlive, makeLog, manageHint, probeTcp, tailOf, waitForExit } = require('./common');
const { ensureKafkaJars, kafkaJarsPresent, kafkaLog, kafkaPid, kafkaPidFile, startKafka } = require('./kafka-broker');
const { withLock } = require('./lock');
const { setTimeout: sleep } = require('node:timers/promises');

/** @typedef {import('./index').ServiceLog} ServiceLog */
/** @typedef {import('./index').TopicSpec} TopicSpec */
/** @typedef {import('./common').EnsureContext} EnsureContext */

/**
 * The request-log topics (names as log-ingest reads them: KAFKA_LOG_TOPIC, KAFKA_LOG_DLQ_TOPIC).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {TopicSpec[]}
 */
function requestLogTopics(env = process.env) {
  return [
    { topic: env.KAFKA_LOG_TOPIC || 'flowgate.request-logs', numPartitions: Number(env.LOG_INGEST_TOPIC_PARTITIONS) || 6 },
    { topic: env.KAFKA_LOG_DLQ_TOPIC || 'flowgate.request-logs.dlq', numPartitions: 1 },
  ];
}

/**
 * `host:port` (an IPv6 host in brackets or not).
 * @param {string} broker
 */
function parseBroker(broker) {
  const index = broker.lastIndexOf(':');
  return { host: broker.slice(0, index).replace(/^\[|\]$/g, ''), port: Number(broker.slice(index + 1)) };
}

/** @param {string[]} brokers */
function kafkaClient(brokers) {
  /** @type {typeof import('kafkajs')} */
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

/**
 * True when a broker answers a metadata request (not merely accepts TCP).
 * @param {string[]} brokers
 * @returns {Promise<boolean>}
 */
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

/**
 * Creates the missing topics, and grows one that has fewer partitions than it should.
 * @param {string[]} brokers
 * @param {TopicSpec[]} topics
 * @param {ServiceLog} log
 */
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

/**
 * Makes Kafka at `brokersText` answer, with `topics` on it (see the top of this file).
 * @param {string} brokersText KAFKA_BROKERS: `host:port,…`
 * @param {TopicSpec[]} topics
 * @param {EnsureContext} context
 * @returns {Promise<void>}
 */
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
  if (!manage || !local) throw new ServiceError(`Kafka is not reachable at ${brokers.join(',')} — start it or fix KAFKA_BROKERS${manageHint(manage)}`);

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
 * Stops the broker started from this checkout (SIGTERM, SIGKILL after 30 s); true when one ran.
 * @param {ServiceLog} [log]
 */
async function stopKafka(log = makeLog(false)) {
  const pid = kafkaPid();
  if (pid) {
    log.step(`stopping Kafka (pid ${pid})`);
    process.kill(pid, 'SIGTERM');
    if (!(await waitForExit(pid, 30000))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5000);
    }
  }
  fs.rmSync(kafkaPidFile, { force: true });
  return pid !== null;
}

module.exports = { requestLogTopics, kafkaAnswers, ensureKafka, ensureKafkaJars, stopKafka };
