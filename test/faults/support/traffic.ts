import { randomUUID } from 'node:crypto';
import type { RequestLogEvent } from '@flowgate/contracts';
import { Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import { makeEvent } from '../../../apps/log-ingest/src/testing/request-log-fixtures';
import { sleep } from './ports';

/**
 * Request-log traffic as gateways produce it: an idempotent producer (acks from all replicas,
 * retries without duplicates), events keyed by project id, a steady rate. Records which
 * events were attempted and which the broker acknowledged — a gateway only counts a log
 * line as sent once acknowledged.
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
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 200, maxRetryTime: 2000 },
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
        .send({ topic: this.topic, acks: -1, messages: events.map((e) => ({ key: e.project_id, value: JSON.stringify(e) })) })
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
