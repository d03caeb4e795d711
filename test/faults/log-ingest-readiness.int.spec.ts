// log-ingest's /readyz follows its dependencies even when no event flows: an idle consumer
// learns of a lost broker only after kafkajs's retries (about a minute), and of a lost
// database only at the next write. Own broker and own PostgreSQL, so nothing shared is stopped.
import { migrate } from '@flowgate/db';
import { uniqueName, waitUntil } from '@flowgate/testing';
import { createDrillTopic, drillKafka } from './support/drill';
import { LogIngestProcess } from './support/log-ingest-process';
import { PrivateKafka } from './support/private-kafka';
import { PrivatePostgres } from './support/private-postgres';

jest.setTimeout(420000);

describe('log-ingest readiness follows Kafka and PostgreSQL (idle, no traffic)', () => {
  const broker = new PrivateKafka('readiness');
  const postgres = new PrivatePostgres();
  const topic = uniqueName('readiness');
  let ingest: LogIngestProcess | undefined;

  beforeAll(async () => {
    await postgres.init();
    postgres.start();
    await migrate(postgres.url(), { quiet: true });
    await broker.start();
    await createDrillTopic(drillKafka(broker.brokers), topic);
    ingest = new LogIngestProcess({ DATABASE_URL: postgres.url(), KAFKA_BROKERS: broker.brokers, KAFKA_LOG_TOPIC: topic, LOG_INGEST_GROUP: topic }, 'readiness');
    await ingest.start();
  });

  afterAll(async () => {
    await ingest?.kill();
    await broker.destroy();
    postgres.destroy();
  });

  /** Waits for /readyz to answer `status` and returns its body. */
  async function readinessBecomes(status: number, what: string): Promise<Record<string, string> | null> {
    let body: Record<string, string> | null = null;
    await waitUntil(async () => {
      const report = await ingest!.readinessReport();
      body = report.body;
      return report.status === status;
    }, (ready) => ready, what, { timeoutMs: 120000, intervalMs: 500 });
    return body;
  }

  it('answers 503 naming Kafka while the broker is down, and 200 once it is back', async () => {
    expect(await readinessBecomes(200, 'ready at first')).toEqual({ status: 'ready', kafka: 'up', consumer_group: 'up', postgres: 'up' });
    await broker.stop();
    expect(await readinessBecomes(503, 'not ready with the broker stopped')).toMatchObject({ status: 'not_ready', kafka: 'down', postgres: 'up' });
    await broker.start();
    expect(await readinessBecomes(200, 'ready again after the broker restarted')).toMatchObject({ kafka: 'up', consumer_group: 'up' });
  });

  it('answers 503 naming PostgreSQL while the database is down, and 200 once it is back', async () => {
    postgres.stop('fast');
    expect(await readinessBecomes(503, 'not ready with PostgreSQL stopped')).toMatchObject({ status: 'not_ready', postgres: 'down', kafka: 'up' });
    postgres.start();
    expect(await readinessBecomes(200, 'ready again after PostgreSQL restarted')).toMatchObject({ postgres: 'up' });
    expect(ingest!.isRunning()).toBe(true);
  });
});
