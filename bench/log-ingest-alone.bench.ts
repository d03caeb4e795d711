/**
 * log-ingest alone, fed as a gateway feeds it: CPU per stored event of the log-ingest process
 * and of its PostgreSQL backends, for log-ingest as `npm run up` runs it against a baseline
 * (other Node flags), in turns in one run. (`npm run bench -- log-ingest-alone`)
 *
 * Each variant is a log-ingest process of its own (its flags, a throwaway migrated database,
 * a topic and consumer group of its own), started from source as the stack starts it. The
 * feed is the gateway's own sender and event JSON (KafkaLogSender, requestLogEventJson): one
 * project, `GET /shout`, all 200s — the whole-stack bench's traffic — BENCH_ALONE_RATE (20,000)
 * events/s in sends every 50 ms, for BENCH_ALONE_SECONDS (10) s, then until every event is
 * stored (log-ingest's own count, /metrics). CPU from /proc: user + system of all threads, and the
 * backends sampled every 500 ms (bench/stack/cpu.ts). The variants take
 * BENCH_ALONE_ROUNDS (3) turns each, alternating, after a 3 s warm-up each; medians are printed,
 * with the deployed variant's as a ratio of the baseline's. BENCH_ALONE_BASELINE_FLAGS sets the
 * baseline (default: the flags log-ingest ran with before, without
 * `--initial-old-space-size`); BENCH_ALONE_KEYED=1 sends every event with a key id.
 */
import { randomUUID } from 'node:crypto';
import { processCpuSeconds, sampleDatabaseBackends } from './stack/cpu';
import { drain, rowsInserted } from './stack/log-ingest-rows';
import { deployedFlags, feed, median, round, startLogIngest, stopLogIngest, type Feed, type LogIngestUnderTest } from './log-ingest-alone/process';

const RATE = Number(process.env.BENCH_ALONE_RATE ?? 20_000);
const SECONDS = Number(process.env.BENCH_ALONE_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ALONE_ROUNDS ?? 3);
const KEYED = process.env.BENCH_ALONE_KEYED === '1';
const BASELINE_FLAGS = process.env.BENCH_ALONE_BASELINE_FLAGS ?? '--single-threaded-gc --max-semi-space-size=32';
/** The bench's own connections, left out of the backends measured. */
const APPLICATION_NAME = 'flowgate-bench-log-ingest-alone';
const traffic: Feed = { rate: RATE, projectIds: [randomUUID()], keyId: KEYED ? randomUUID() : null };

interface Variant extends LogIngestUnderTest {
  name: 'deployed' | 'baseline';
  flags: string[];
  logIngestUs: number[];
  postgresUs: number[];
}

async function startVariant(name: Variant['name'], flags: string[], port: number): Promise<Variant> {
  return { ...(await startLogIngest(name, flags, port, APPLICATION_NAME)), name, flags, logIngestUs: [], postgresUs: [] };
}

async function measure(variant: Variant): Promise<void> {
  const from = await rowsInserted(variant.port);
  const sent = variant.sent;
  const stopBackends = sampleDatabaseBackends(variant.pool, APPLICATION_NAME);
  const process0 = processCpuSeconds(variant.child.pid!);
  await feed(variant, traffic, SECONDS);
  const events = variant.sent - sent;
  await drain(variant.port, from, events);
  const process1 = processCpuSeconds(variant.child.pid!);
  variant.logIngestUs.push(((process1 - process0) * 1e6) / events);
  variant.postgresUs.push(((await stopBackends()) * 1e6) / events);
  process.stdout.write(`${variant.name.padEnd(9)} ${events} events: log-ingest ${round(variant.logIngestUs.at(-1)!)} µs/event, PostgreSQL ${round(variant.postgresUs.at(-1)!)} µs/row\n`);
}

async function main(): Promise<void> {
  const variants = [await startVariant('deployed', deployedFlags(), 3091), await startVariant('baseline', BASELINE_FLAGS.split(' ').filter(Boolean), 3092)];
  process.stdout.write(`log-ingest alone, ${RATE} events/s for ${SECONDS} s per turn${KEYED ? ', keyed' : ''}; ${variants.map((v) => `${v.name}: ${v.flags.join(' ')}`).join('; ')}\n`);
  try {
    for (const variant of variants) {
      const from = await rowsInserted(variant.port);
      await feed(variant, traffic, 3);
      await drain(variant.port, from, variant.sent);
    }
    for (let turn = 0; turn < ROUNDS; turn += 1) {
      for (const variant of turn % 2 === 0 ? variants : [...variants].reverse()) await measure(variant);
    }
    const [deployed, baseline] = variants.map((v) => ({ log_ingest_us: round(median(v.logIngestUs)), postgres_us: round(median(v.postgresUs)) }));
    process.stdout.write(
      `medians: deployed ${deployed.log_ingest_us} / ${deployed.postgres_us} µs, baseline ${baseline.log_ingest_us} / ${baseline.postgres_us} µs (log-ingest / PostgreSQL); ` +
        `log-ingest deployed = ${round(deployed.log_ingest_us / baseline.log_ingest_us)}× baseline\n`,
    );
    process.stdout.write(
      `${JSON.stringify({ bench: 'log-ingest-alone', rate: RATE, seconds: SECONDS, rounds: ROUNDS, keyed: KEYED, deployed, baseline, log_ingest_ratio: round(deployed.log_ingest_us / baseline.log_ingest_us) })}\n`,
    );
  } finally {
    for (const variant of variants) await stopLogIngest(variant);
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
