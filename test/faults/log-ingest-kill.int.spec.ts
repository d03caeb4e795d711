// Fault drill (a): kill -9 log-ingest while traffic flows, start it again. Every event the
// producer saw acknowledged must end up in request_logs exactly once, and in the stats rollups
// once (folded every 300 ms here, so the kill may land between a write and its fold, or mid-fold).
import { Pool } from 'pg';
import { uniqueName, waitUntil } from '@flowgate/testing';
import { createDrillTopic, deleteDrillTopics, drillKafka, expectExactlyOnce, finishDrill, waitAcknowledged, waitStored } from './support/drill';
import { LogIngestProcess } from './support/log-ingest-process';
import { Traffic } from './support/traffic';
import { committedTotalOf, rollupMismatches } from './support/verify';

jest.setTimeout(240000);

describe('fault drill (a): kill -9 log-ingest under traffic', () => {
  const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')[0];
  const kafka = drillKafka(brokers);
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  const topic = uniqueName('drill-kill');
  const ingest = new LogIngestProcess({ DATABASE_URL: process.env.DATABASE_URL!, KAFKA_BROKERS: brokers, KAFKA_LOG_TOPIC: topic, LOG_INGEST_GROUP: topic, LOG_INGEST_ROLLUP_FOLD_MS: '300' }, 'log-ingest-kill');
  const traffic = new Traffic(brokers, topic, 500);

  beforeAll(() => createDrillTopic(kafka, topic));

  afterAll(async () => {
    await traffic.stop().catch(() => undefined);
    await ingest.kill();
    await pool.query('DELETE FROM request_logs WHERE project_id = ANY($1::uuid[])', [traffic.projectIds]);
    await pool.query('DELETE FROM request_log_rollups WHERE project_id = ANY($1::uuid[])', [traffic.projectIds]);
    await pool.query('DELETE FROM request_log_rollup_deltas WHERE project_id = ANY($1::uuid[])', [traffic.projectIds]);
    await pool.end();
    await deleteDrillTopics(kafka, topic);
  });

  it('loses and duplicates nothing across a kill -9 and a restart; a graceful stop then commits everything', async () => {
    await ingest.start();
    await traffic.start();
    await waitStored(pool, traffic, 500);

    await ingest.kill();
    const waitedFor = await waitAcknowledged(traffic, 1000); // traffic goes on while nothing consumes

    await ingest.start();
    // The backlog, and 1,000 events of fresh traffic after the restart.
    await waitStored(pool, traffic, traffic.acknowledged.size + 1000);
    const counts = await finishDrill('kill-9-log-ingest', pool, traffic);
    expectExactlyOnce(counts, waitedFor);
    expect(await rollupMismatches(pool, traffic.projectIds)).toEqual([]);
    // The running log-ingest folds what is left; the statistics stay the same.
    const unfolded = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM request_log_rollup_deltas WHERE project_id = ANY($1::uuid[])', [traffic.projectIds])).rows[0]!.n;
    await waitUntil(unfolded, (n) => n === 0, 'the rollup deltas folded');
    expect(await rollupMismatches(pool, traffic.projectIds)).toEqual([]);

    expect(await ingest.stop()).toBe(0);
    expect(await committedTotalOf(kafka, topic, topic)).toBe(await committedTotalOf(kafka, topic, null));
  });
});
