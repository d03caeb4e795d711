import type { Logger } from '@flowgate/platform';
import { speedUpKafkajsProduce, stopKafkajsIdleLoop } from '@flowgate/platform/kafkajs';
import { Kafka, logLevel, Partitioners, type ICustomPartitioner, type Producer } from 'kafkajs';
import type { LogBatchSender, LogMessage } from './log-batch-sender';
import { packByProject } from './pack-messages';

export interface KafkaLogSenderOptions {
  brokers: string[];
  topic: string;
  clientId: string;
  logger: Logger;
}

/**
 * kafkajs's default (Java-compatible murmur2) partitioner, memoised per key: a gateway sends
 * many events of few projects, and hashing every message showed up in profiles.
 */
const memoisedPartitioner: ICustomPartitioner = () => {
  const partitioner = Partitioners.DefaultPartitioner();
  const memo = new Map<string, number>();
  let memoFor = '';
  return (args) => {
    const key = args.message.key;
    if (typeof key !== 'string') return partitioner(args);
    const scope = `${args.topic}/${args.partitionMetadata.length}`;
    if (scope !== memoFor) {
      memo.clear();
      memoFor = scope;
    }
    let partition = memo.get(key);
    if (partition === undefined) {
      partition = partitioner(args);
      if (memo.size < 100_000) memo.set(key, partition);
    }
    return partition;
  };
};

/**
 * kafkajs idempotent producer (acks = all); a batch's events are packed one message per project. Retries inside kafkajs are kept short: the
 * request-log buffer owns the retry loop (with backoff, bounded memory and warnings), so a
 * batch that kafkajs gives up on is simply sent again. Duplicates that a retry can cause are
 * harmless: log-ingest is idempotent on the event id.
 */
export class KafkaLogSender implements LogBatchSender {
  private readonly producer: Producer;
  private connected: Promise<void> | null = null;

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
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
      createPartitioner: memoisedPartitioner,
      retry: { initialRetryTime: 100, maxRetryTime: 2000, retries: 3 },
    });
  }

  async send(messages: LogMessage[]): Promise<void> {
    try {
      if (this.connected === null) this.connected = this.producer.connect();
      await this.connected;
      // One NDJSON message per project per send (see pack-messages.ts); events stay in order.
      await this.producer.send({ topic: this.options.topic, acks: -1, messages: packByProject(messages) });
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
