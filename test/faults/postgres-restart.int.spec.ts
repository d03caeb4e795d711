// Fault drill (c): stop and start PostgreSQL while traffic flows. The drill runs its own
// PostgreSQL server (initdb in a temporary directory, its own port) so the shared server
// other tests use is never stopped.
import { migrate } from '@flowgate/db';
import { Pool } from 'pg';
import { uniqueName, waitUntil } from '@flowgate/testing';
import { createDrillTopic, deleteDrillTopics, drillKafka, expectExactlyOnce, finishDrill, waitAcknowledged, waitStored } from './support/drill';
import { LogIngestProcess } from './support/log-ingest-process';
import { PrivatePostgres } from './support/private-postgres';
import { Traffic } from './support/traffic';

jest.setTimeout(300000);

describe('fault drill (c): stop and start PostgreSQL under traffic', () => {
  const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')[0];
  const kafka = drillKafka(brokers);
  const postgres = new PrivatePostgres();
  const topic = uniqueName('drill-pg');
  let pool: Pool | undefined;
  let ingest: LogIngestProcess | undefined;
  const traffic = new Traffic(brokers, topic, 500);

  beforeAll(async () => {
    await postgres.init();
    postgres.start();
    await migrate(postgres.url(), { quiet: true });
    pool = new Pool({ connectionString: postgres.url(), max: 2 });
    pool.on('error', () => undefined); // its idle connections die with the server during the drill
    await createDrillTopic(kafka, topic);
  });

  afterAll(async () => {
    await traffic.stop().catch(() => undefined);
    await ingest?.kill();
    await pool?.end().catch(() => undefined);
    postgres.destroy();
    await deleteDrillTopics(kafka, topic);
  });

  it('pauses while PostgreSQL is down and stores every acknowledged event exactly once after it is back', async () => {
    const db = pool!;
    ingest = new LogIngestProcess({ DATABASE_URL: postgres.url(), KAFKA_BROKERS: brokers, KAFKA_LOG_TOPIC: topic, LOG_INGEST_GROUP: topic }, 'postgres-restart');
    await ingest.start();
    await traffic.start();
    await waitStored(db, traffic, 500);

    postgres.stop('fast');
    // Down until log-ingest has noticed (not ready) and the traffic went on for a while.
    await waitUntil(async () => (await ingest!.readiness()) === 503, (ready) => ready, 'log-ingest to report not ready', { timeoutMs: 60000 });
    const waitedFor = await waitAcknowledged(traffic, 1000);
    expect(ingest.isRunning()).toBe(true);
    postgres.start();

    await waitUntil(async () => (await ingest!.readiness()) === 200, (ready) => ready, 'log-ingest ready again', { timeoutMs: 60000 });
    // The backlog of the outage, and 1,000 events of fresh traffic after it.
    await waitStored(db, traffic, traffic.acknowledged.size + 1000);
    const counts = await finishDrill('restart-postgresql', db, traffic);
    expectExactlyOnce(counts, waitedFor);
    expect(await ingest.stop()).toBe(0);
  });
});
