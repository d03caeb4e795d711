// Fault drill (b): restart the Kafka broker while traffic flows. The drill runs its own
// single-node broker (own ports and data under .cache/faultdrills/) so the shared broker
// other tests use is never touched.
import { Pool } from 'pg';
import { sleep, uniqueName, waitUntil } from '@flowgate/testing';
import { createDrillTopic, drillKafka, expectExactlyOnce, finishDrill, waitAcknowledged, waitStored } from './support/drill';
import { LogIngestProcess } from './support/log-ingest-process';
import { PrivateKafka } from './support/private-kafka';
import { Traffic } from './support/traffic';

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
    const acknowledgedWhileUp = traffic.acknowledged.size;
    await sleep(3000); // producer and consumer both see the broker gone
    expect(traffic.acknowledged.size - acknowledgedWhileUp).toBeLessThan(200); // nothing more is acknowledged
    await broker.start();

    // What was queued in the producer during the outage, and 1,000 events of fresh traffic after it.
    await waitAcknowledged(traffic, 1000, 120000);
    await waitStored(pool, traffic, traffic.acknowledged.size, 120000);
    const counts = await finishDrill('restart-kafka-broker', pool, traffic, 120000);
    expectExactlyOnce(counts, 2000);

    expect(ingest.isRunning()).toBe(true); // the consumer recovered by itself
    await waitUntil('log-ingest ready again', async () => (await ingest!.readiness()) === 200, (ready) => ready, { timeoutMs: 60000 });
    expect(await ingest.stop()).toBe(0);
  });
});
