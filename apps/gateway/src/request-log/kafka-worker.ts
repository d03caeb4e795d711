/**
 * Worker thread that owns the kafkajs producer: encoding record batches costs about as much
 * CPU per request as serving it, so it runs beside the HTTP event loop instead of on it.
 * Protocol: kafka-worker-protocol.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { KafkaLogSender } from './kafka-log-sender';
import { decodeBatch, type FromWorker, type KafkaWorkerData, type ToWorker } from './kafka-worker-protocol';

const data = workerData as KafkaWorkerData;
const port = parentPort!;
const sender = new KafkaLogSender({
  brokers: data.brokers,
  topic: data.topic,
  clientId: data.clientId,
  // pino directly: the worker loads as little as it can (kafkajs logs carry no secrets).
  logger: pino({ name: 'gateway', level: data.logLevel, base: { service: 'gateway', thread: 'kafka' } }),
});

port.on('message', (message: ToWorker) => {
  if ('close' in message) {
    void sender
      .close()
      .catch(() => undefined)
      .then(() => port.postMessage({ closed: true } satisfies FromWorker));
    return;
  }
  sender.send(decodeBatch(message.lines)).then(
    () => port.postMessage({ id: message.id } satisfies FromWorker),
    (error: unknown) => port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) } satisfies FromWorker),
  );
});
