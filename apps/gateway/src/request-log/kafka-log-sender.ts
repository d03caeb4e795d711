import type { Logger } from '@flowgate/platform';
import { speedUpKafkajsProduce, stopKafkajsIdleLoop } from '@flowgate/platform/kafkajs';
import { CompressionCodecs, CompressionTypes, Kafka, logLevel, Partitioners, type ICustomPartitioner, type Producer } from 'kafkajs';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { LogCompression } from './kafka-worker-protocol';
import type { LogBatchSender } from './log-batch-sender';
import { packMessages } from './pack-messages';

export interface KafkaLogSenderOptions {
  brokers: string[];
  topic: string;
  clientId: string;
  /** gzip (default) or none: see GZIP_LEVEL_1. */
  compression?: LogCompression;
  logger: Logger;
}

/**
 * kafkajs' GZIP codec at level 1, run on the calling thread. A batch of request-log events is
 * NDJSON that repeats its field names, project and endpoint ids: level 1 packs the stack
 * bench's events from ~330 to ~18 bytes each at ~0.27 µs of CPU per event, and the bytes it
 * saves cost more than that in the rest of the pipeline — encoding, CRC and socket writes here,
 * the broker's log and fetches, log-ingest's reads (measured: request-log thread −1 µs, broker
 * −0.5 µs per request; `npm run bench -- stack`). kafkajs' own codec uses the
 * default level (~4× the CPU) on libuv's thread pool. The producer runs in the request-log
 * worker thread, where blocking for a batch's compression holds up nothing else. log-ingest
 * reads gzip with kafkajs' own decompression.
 */
const GZIP_LEVEL_1 = {
  compress: async (encoder: { buffer: Buffer }) => gzipSync(encoder.buffer, { level: 1 }),
  decompress: async (buffer: Buffer) => gunzipSync(buffer),
};

/** How long a gateway's sends keep one partition before the next takes over. */
export const PARTITION_STICKS_MS = 2000;

/**
 * Which partition a send goes to: all of it to one, the same one for PARTITION_STICKS_MS, then
 * the next (round robin from a random start, so gateways do not move in step). A consumer's
 * fetch (log-ingest waits up to 500 ms for one) then finds one partition's batch, whichever and
 * however many projects the traffic comes from: spread over the partitions by project, 500
 * projects cost log-ingest 1.6× one project's CPU per event, sent this way 1.2× (perf/JOURNAL.md). Partitions still share the load over a few seconds. The
 * partition count is learnt from the topic's metadata, which kafkajs hands the partitioner on
 * every send; the first send, before it is known, goes to the partition kafkajs picks.
 */
export class StickyPartition {
  private count = 0;
  private next = Math.floor(Math.random() * 1024);
  private partition = 0;
  private until = -Infinity;

  readonly createPartitioner: ICustomPartitioner = () => {
    const fallback = Partitioners.DefaultPartitioner();
    return (args) => {
      this.count = args.partitionMetadata.length;
      return fallback(args); // a message that names its partition keeps it
    };
  };

  /** The partition for a send now; undefined until the topic's partitions are known. */
  now(): number | undefined {
    if (this.count === 0) return undefined;
    const now = Date.now();
    if (now >= this.until || this.partition >= this.count) {
      this.partition = this.next++ % this.count;
      this.until = now + PARTITION_STICKS_MS;
    }
    return this.partition;
  }
}

/**
 * kafkajs idempotent producer (acks = all); a batch's events are packed into as few messages as
 * fit, on one partition. Retries inside kafkajs are kept short: the request-log buffer owns the retry loop (with backoff, bounded memory and warnings), so a
 * batch that kafkajs gives up on is simply sent again. Duplicates that a retry can cause are
 * harmless: log-ingest is idempotent on the event id.
 */
export class KafkaLogSender implements LogBatchSender {
  private readonly producer: Producer;
  private connected: Promise<void> | null = null;
  private readonly compression: CompressionTypes;
  private readonly partition = new StickyPartition();

  constructor(private readonly options: KafkaLogSenderOptions) {
    // kafkajs 2.2.4 spins a 1 ms timer per idle broker connection (libs/platform/src/kafkajs-idle-loop.ts).
    if (!stopKafkajsIdleLoop()) options.logger.warn('kafkajs request queue not patched (unknown version): an idle producer polls every millisecond');
    // Before the first produce request: a faster CRC-32C and encoders that do not zero-fill (libs/platform/src/kafkajs-produce-encoding.ts).
    if (!speedUpKafkajsProduce()) options.logger.debug('kafkajs produce encoding not patched (unknown version, or it has produced already)');
    const kafkaLogger = options.logger.child({ component: 'kafkajs' });
    const kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      connectionTimeout: 3000,
      requestTimeout: 10_000,
      retry: { initialRetryTime: 100, maxRetryTime: 2000, retries: 3 },
      // The buffer reports outages once; kafkajs would repeat them on every retry.
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ level, log }) => {
          const { message, ...extra } = log;
          kafkaLogger[level === logLevel.ERROR || level === logLevel.WARN ? 'debug' : 'trace'](extra, message);
        },
    });
    const gzip = options.compression !== 'none';
    // kafkajs looks codecs up in one table per process: the level-1 codec takes its GZIP slot.
    if (gzip) CompressionCodecs[CompressionTypes.GZIP] = () => GZIP_LEVEL_1;
    this.compression = gzip ? CompressionTypes.GZIP : CompressionTypes.None;
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
      createPartitioner: this.partition.createPartitioner,
      retry: { initialRetryTime: 100, maxRetryTime: 2000, retries: 3 },
    });
  }

  async send(events: string[]): Promise<void> {
    try {
      if (this.connected === null) this.connected = this.producer.connect();
      await this.connected;
      // As few NDJSON messages as fit (see pack-messages.ts), all on one partition.
      await this.producer.send({ topic: this.options.topic, acks: -1, compression: this.compression, messages: packMessages(events, this.partition.now()) });
    } catch (error) {
      // Start from a clean connection next time (a new producer id for the idempotent producer).
      this.connected = null;
      await this.producer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.connected = null;
    await this.producer.disconnect();
  }
}
