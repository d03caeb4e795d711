// Fault drill (b): restart the Kafka broker while traffic flows. The drill runs its own
// single-node broker (own ports and data under .cache/faultdrills/) so the shared broker
// other tests use is never touched.
import { Pool } from 'pg';
import { uniqueName, waitUntil } from '@flowgate/testing';
import { createDrillTopic, drillKafka, expectExactlyOnce, finishDrill, waitAcknowledged, waitStored } from './support/drill';
import { LogIngestProcess } from './support/log-ingest-process';
import { PrivateKafka } from './support/private-kafka';
import { Traffic } from './support/traffic';
import { setTimeout as sleep } from 'node:timers/promises';

jest.setTimeout(420000);

describe('fault drill (b): restart the Kafka broker under traffic', () => {
  const broker = new PrivateKafka('restart');
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  const topic = uniqueName('drill-kafka');
  let ingest: LogIngestProcess | undefined;
  let traffic: Traffic | undefined;

  beforeAll(async () => {
    await broker.start();
    await createDrillTopic(drillKafka(broker.brokers), topic);
  });

  afterAll(async () => {
    await traffic?.stop().catch(() => undefined);
    await ingest?.kill();
    if (traffic) await pool.query('DELETE FROM request_logs WHERE project_id = ANY($1::uuid[])', [traffic.projectIds]);
    await pool.end();
    await broker.destroy();
  });

  it('stores every acknowledged event exactly once across a broker restart', async () => {
    ingest = new LogIngestProcess({ DATABASE_URL: process.env.DATABASE_URL!, KAFKA_BROKERS: broker.brokers, KAFKA_LOG_TOPIC: topic, LOG_INGEST_GROUP: topic }, 'kafka-restart');
    traffic = new Traffic(broker.brokers, topic, 500);
    await ingest.start();
    await traffic.start();
    await waitStored(pool, traffic, 500);

    await broker.stop();
    await sleep(3000); // producer and consumer both see the broker gone
    // Nothing is acknowledged while the broker is away (acknowledgements already on the wire
    // when it stopped have arrived by now, however busy the machine).
    const acknowledgedWhileDown = traffic.acknowledged.size;
    await sleep(2000);
    expect(traffic.acknowledged.size).toBe(acknowledgedWhileDown);
    await broker.start();

    // What was queued in the producer during the outage, and 1,000 events of fresh traffic after it.
    const waitedFor = await waitAcknowledged(traffic, 1000, 120000);
    await waitStored(pool, traffic, traffic.acknowledged.size, 120000);
    const counts = await finishDrill('restart-kafka-broker', pool, traffic, 120000);
    expectExactlyOnce(counts, waitedFor);

    expect(ingest.isRunning()).toBe(true); // the consumer recovered by itself
    await waitUntil(async () => (await ingest!.readiness()) === 200, (ready) => ready, 'log-ingest ready again', { timeoutMs: 60000 });
    expect(await ingest.stop()).toBe(0);
  });
});
