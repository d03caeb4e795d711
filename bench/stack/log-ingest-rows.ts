import { setTimeout as sleep } from 'node:timers/promises';
/** The longest a drain waits for log-ingest to store what was sent. */
const DRAIN_TIMEOUT_MS = 180_000;

/** Rows log-ingest (on `logIngestPort`) has inserted since it started, from its /metrics. */
export async function rowsInserted(logIngestPort: string | number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${logIngestPort}/metrics`);
  const text = await response.text();
  const match = /^flowgate_log_ingest_rows_inserted_total(?:\{[^}]*\})? (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
  if (!match) throw new Error('log-ingest /metrics has no flowgate_log_ingest_rows_inserted_total');
  return Number(match[1]);
}

/** Waits until log-ingest has stored `count` more rows than `from`; returns the seconds it took. */
export async function drain(logIngestPort: string | number, from: number, count: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const stored = (await rowsInserted(logIngestPort)) - from;
    if (stored >= count) return (Date.now() - started) / 1000;
    if (Date.now() - started > DRAIN_TIMEOUT_MS) throw new Error(`log pipeline: ${stored} of ${count} rows stored after ${DRAIN_TIMEOUT_MS / 1000} s`);
    await sleep(100);
  }
}
