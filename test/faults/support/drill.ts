import { Kafka, logLevel } from 'kafkajs';
import type { Pool } from 'pg';
import { waitUntil } from '@flowgate/testing';
import type { Traffic } from './traffic';
import { countDrill, report, storedCount, type DrillCounts } from './verify';
import { setTimeout as sleep } from 'node:timers/promises';

export function drillKafka(brokers: string): Kafka {
  return new Kafka({ clientId: 'faultdrill', brokers: [brokers], logLevel: logLevel.NOTHING, retry: { retries: 10, initialRetryTime: 300 } });
}

export async function createDrillTopic(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 6, replicationFactor: 1 }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

export async function deleteDrillTopics(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect().catch(() => undefined);
  await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
  await admin.disconnect().catch(() => undefined);
}

/** Waits until at least `atLeast` of the drill's events are in request_logs. */
export async function waitStored(pool: Pool, traffic: Traffic, atLeast: number, timeoutMs = 60000): Promise<void> {
  await waitUntil(async () => (await storedCount(pool, traffic.projectIds)) >= atLeast, (ready) => ready, `${atLeast} stored events`, { timeoutMs: timeoutMs, intervalMs: 250 });
}

/** Waits until the producer has had `more` further events acknowledged; returns the total it waited for. */
export async function waitAcknowledged(traffic: Traffic, more: number, timeoutMs = 60000): Promise<number> {
  const target = traffic.acknowledged.size + more;
  await waitUntil(() => traffic.acknowledged.size >= target, (ready) => ready, `${more} more acknowledged events`, { timeoutMs: timeoutMs, intervalMs: 100 });
  return target;
}

/**
 * Stops the traffic, waits (bounded) until every acknowledged event is stored, then counts
 * and prints sent / acknowledged / stored.
 */
export async function finishDrill(name: string, pool: Pool, traffic: Traffic, timeoutMs = 90000): Promise<DrillCounts> {
  await traffic.stop();
  const deadline = Date.now() + timeoutMs;
  let counts = await countDrill(name, pool, traffic.projectIds, traffic.attempted, traffic.acknowledged);
  while (counts.acknowledged_missing > 0 && Date.now() < deadline) {
    await sleep(500);
    counts = await countDrill(name, pool, traffic.projectIds, traffic.attempted, traffic.acknowledged);
  }
  counts.failed_sends = traffic.failedSends;
  report(counts);
  return counts;
}

/**
 * The drill's verdict: every acknowledged event stored, exactly once, nothing invented.
 * `waitedFor` is the acknowledged total the drill itself waited for (what `waitAcknowledged`
 * returned), never a fixed count: how much traffic flows in a given time depends on the machine.
 */
export function expectExactlyOnce(counts: DrillCounts, waitedFor: number): void {
  expect(counts.acknowledged).toBeGreaterThanOrEqual(waitedFor);
  expect(counts.acknowledged_missing).toBe(0);
  expect(counts.stored).toBe(counts.stored_distinct);
  expect(counts.stored_never_sent).toBe(0);
  // Events the broker took but whose acknowledgement the producer never saw may be stored too.
  expect(counts.stored).toBeLessThanOrEqual(counts.attempted);
}
