import { z } from 'zod';
import { EgressError, IntegrationError } from '../../ports';
import type { FlowRun } from '../../runtime/flow-run';
import type { TracedBlock } from '../../runtime/flow-tracer';
import { BlockFailure, RunInterrupted } from '../../runtime/run-errors';

export const RETRY_CAUSES = ['network', '5xx', '429'] as const;
export type RetryCause = (typeof RETRY_CAUSES)[number];

/** The longest wait between two attempts, whatever the backoff or a `Retry-After` asks for. */
export const MAX_RETRY_WAIT_MS = 10_000;

/** `retry` of Send External Request, Generate Text and Send Email: `attempts` is the number of tries after the first. */
export const retryField = () =>
  z
    .object({
      attempts: z.number().int().min(0).max(5).default(0).meta({ title: 'Attempts' }),
      delay_ms: z.number().int().min(50).max(MAX_RETRY_WAIT_MS).default(500).meta({ title: 'Delay (ms)' }),
      backoff: z.enum(['fixed', 'exponential']).default('exponential').meta({ title: 'Backoff' }),
      on: z
        .array(z.enum(RETRY_CAUSES))
        .max(RETRY_CAUSES.length)
        .default([...RETRY_CAUSES])
        .meta({ title: 'Retry on', optionTitles: { network: 'Network errors', '5xx': '5xx answers', '429': '429 answers' } }),
    })
    .optional()
    .meta({ title: 'Retry' });

export type RetryPolicy = z.output<ReturnType<typeof retryField>>;

/** What came of one attempt: a cause that may be retried (or null), its name in the trace, and a server's `Retry-After`. */
export interface AttemptVerdict {
  cause: RetryCause | null;
  outcome: string;
  retryAfterMs?: number;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs `attempt`, and again while the policy says so: the cause is one it retries, tries are
 * left, and the wait (the backoff's, or `Retry-After` up to 10 s) ends before the flow's
 * deadline. The last attempt's outcome is the block's. Every attempt is told to the tracer.
 * Waits are not time on the event loop (the block is awaited like any port call).
 */
export async function withRetries<T>(
  run: FlowRun,
  policy: RetryPolicy,
  block: TracedBlock,
  attempt: () => Promise<T>,
  judge: (settled: Settled<T>) => AttemptVerdict,
): Promise<T> {
  for (let number = 1; ; number++) {
    let settled: Settled<T>;
    try {
      settled = { ok: true, value: await attempt() };
    } catch (error) {
      if (error instanceof RunInterrupted || run.signal.aborted) throw error;
      settled = { ok: false, error };
    }
    if (policy === undefined || policy.attempts === 0) return unwrap(settled);
    const verdict = judge(settled);
    const wait = number <= policy.attempts && verdict.cause !== null && policy.on.includes(verdict.cause) ? waitBefore(number, policy, verdict) : null;
    const retrying = wait !== null && Date.now() + wait < run.deadlineAt;
    run.tracer?.attempt?.(block, { attempt: number, outcome: verdict.outcome, wait_ms: retrying ? wait : 0 });
    if (!retrying) return unwrap(settled);
    await sleep(run, wait);
  }
}

function unwrap<T>(settled: Settled<T>): T {
  if (settled.ok) return settled.value;
  throw settled.error;
}

/** The wait after attempt `number`: `Retry-After` when the server sent one, else the backoff's; never over 10 s. */
function waitBefore(number: number, policy: NonNullable<RetryPolicy>, verdict: AttemptVerdict): number {
  const backoff = policy.backoff === 'fixed' ? policy.delay_ms : policy.delay_ms * 2 ** (number - 1);
  return Math.min(verdict.retryAfterMs ?? backoff, MAX_RETRY_WAIT_MS);
}

function sleep(run: FlowRun, ms: number): Promise<void> {
  if (run.ports.sleep) return run.ports.sleep(ms, run.signal);
  return new Promise<void>((resolve, reject) => {
    const signal = run.signal;
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `Retry-After` as milliseconds: seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A port's failure judged for a retry: network trouble, or a provider's 5xx / 429. */
export function judgeFailure(error: unknown): AttemptVerdict {
  if (error instanceof IntegrationError) {
    if (error.status === 429) return { cause: '429', outcome: 'http_429', retryAfterMs: error.retryAfterMs };
    if (error.status !== undefined && error.status >= 500) return { cause: '5xx', outcome: `http_${error.status}` };
    return { cause: error.network === true ? 'network' : null, outcome: error.network === true ? 'network' : 'integration_error' };
  }
  if (error instanceof EgressError) return { cause: error.code === 'timeout' || error.code === 'connection_failed' ? 'network' : null, outcome: error.code };
  // A refusal of the block's own (bad input) is the same on every try; anything else is the way there.
  if (error instanceof BlockFailure) return { cause: null, outcome: error.code };
  return { cause: 'network', outcome: 'network' };
}

/** For blocks whose attempt either resolves (ok) or throws. */
export const judgePortCall = <T>(settled: Settled<T>): AttemptVerdict => (settled.ok ? { cause: null, outcome: 'ok' } : judgeFailure(settled.error));
