/**
 * The request-log worker thread: the bounded buffer and the kafkajs producer live here, beside
 * the HTTP event loop. Encoding Kafka record batches costs about as much CPU per request as
 * serving it, and events waiting for Kafka would otherwise be promoted into the HTTP thread's
 * old generation. Protocol: kafka-worker-protocol.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { KafkaLogSender } from './kafka-log-sender';
import { forEachEvent, type FromWorker, type KafkaWorkerData, type ToWorker } from './kafka-worker-protocol';
import { RequestLogBuffer } from './request-log-buffer';

const data = workerData as KafkaWorkerData;
const port = parentPort!;
// pino directly: the worker loads as little as it can (these logs carry no secrets).
const logger = pino({ name: 'gateway', level: data.logLevel, base: { service: 'gateway', thread: 'request-log' } });
const buffer = new RequestLogBuffer({
  sender: new KafkaLogSender({ brokers: data.brokers, topic: data.topic, clientId: data.clientId, compression: data.compression, logger }),
  logger,
  maxEvents: data.maxEvents,
  lingerMs: data.lingerMs,
});
const push = (value: string): void => buffer.pushSerialized(value);

let reported = { depth: -1, dropped: -1 };
const report = setInterval(() => {
  if (buffer.depth === reported.depth && buffer.dropped === reported.dropped) return;
  reported = { depth: buffer.depth, dropped: buffer.dropped };
  port.postMessage({ stats: reported } satisfies FromWorker);
}, 100);

port.on('message', (message: ToWorker) => {
  if ('lines' in message) {
    forEachEvent(message.lines, push);
    return;
  }
  clearInterval(report);
  void buffer.close(message.timeoutMs).then((lost) => port.postMessage({ closed: lost } satisfies FromWorker));
});
