import { randomUUID } from 'node:crypto';
import type { RequestLogEvent } from '@flowgate/contracts';
import { CompressionTypes, Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import { makeEvent } from '@flowgate/testing';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Request-log traffic as a gateway produces it: events keyed by project id, acks from all
 * in-sync replicas, retries, a steady rate with several sends in flight. Records which events
 * were attempted and which the broker acknowledged — a gateway only counts a log line as sent
 * once acknowledged.
 *
 * Not kafkajs' idempotent producer: with several send() calls in flight it can acknowledge a
 * send whose records never reach the log when the broker restarts (seen in the broker drill:
 * acknowledged events absent from the topic; cf. tulios/kafkajs#1005). A plain producer with
 * retries may write an event twice instead — which log-ingest must, and does, store once.
 */
export class Traffic {
  readonly projectIds = Array.from({ length: 12 }, () => randomUUID());
  readonly attempted = new Set<string>();
  readonly acknowledged = new Set<string>();
  failedSends = 0;
  private producer: Producer | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly brokers: string,
    private readonly topic: string,
    /** Events per second; sent every 20 ms. */
    private readonly rate = 500,
  ) {}

  async start(): Promise<void> {
    const kafka = new Kafka({ clientId: 'faultdrill-gateway', brokers: [this.brokers], logLevel: logLevel.NOTHING });
    this.producer = kafka.producer({
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: 30, initialRetryTime: 200, maxRetryTime: 2000 },
    });
    await this.producer.connect();
    this.running = true;
    this.loop = this.run();
  }

  /** Stops sending and waits for the sends still in flight to be acknowledged or fail. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.producer?.disconnect();
  }

  private async run(): Promise<void> {
    const perTick = Math.max(1, Math.round(this.rate / 50));
    let tick = 0;
    while (this.running) {
      await sleep(20);
      // While the broker is away, sends queue up in the producer; keep the queue bounded.
      if (this.inFlight.size >= 50) continue;
      const events: RequestLogEvent[] = Array.from({ length: perTick }, (_, i) =>
        makeEvent({ project_id: this.projectIds[(tick + i) % this.projectIds.length] }),
      );
      tick += 1;
      for (const event of events) this.attempted.add(event.id);
      const send = this.producer!
        // gzip-compressed batches, as the gateway sends them (GATEWAY_LOG_COMPRESSION's default).
        .send({ topic: this.topic, acks: -1, compression: CompressionTypes.GZIP, messages: events.map((e) => ({ key: e.project_id, value: JSON.stringify(e) })) })
        .then(() => {
          for (const event of events) this.acknowledged.add(event.id);
        })
        .catch(() => {
          this.failedSends += 1;
        });
      this.inFlight.add(send);
      void send.finally(() => this.inFlight.delete(send));
    }
  }
}
