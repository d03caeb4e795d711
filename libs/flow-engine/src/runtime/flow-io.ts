import type { TextStream } from '../ports';
import type { FlowScheduler } from './fair-scheduler';
import type { FlowLimits } from './flow-limits';
import type { FlowTracer } from './flow-tracer';

/** What the gateway hands the engine for one request. */
export interface FlowRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parsed JSON (or form fields); undefined/null when the request has no body. */
  body: unknown;
  /** Lowercased names, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** A schedule's run: `{schedule.name}` and `{schedule.time}` (the tick, ISO 8601). */
  schedule?: { name: string; time: string };
}

export type FlowResult =
  /** A Respond block answered; a flow that ends without one answers `{ status: 200, body: {} }`. */
  | { type: 'response'; status: number; body: unknown }
  /**
   * Stream Text answered: the model's text, to be sent as Server-Sent Events as it is written.
   * Whoever receives it reads the stream to its end or cancels it.
   */
  | { type: 'stream'; status: 200; stream: TextStream; node_id: string }
  /**
   * Return Error (its own status and code), a failing block (`flow_error`, 500), a value over
   * the limits (`value_too_large`, 422), the deadline (`flow_timeout`, 504), the CPU budget
   * (`flow_cpu_exceeded`, 504).
   */
  | { type: 'error'; status: number; code: string; message: string; node_id: string | null };

export interface ExecuteOptions {
  /** Time budget in milliseconds from the call (→ `flow_timeout` when spent). */
  timeoutMs?: number;
  /** The same as an absolute `Date.now()` timestamp, for a caller whose clock started earlier; the earlier of the two wins. */
  deadlineAt?: number;
  /** Cancels the run (e.g. the client went away); the result is then `unavailable`, 503. */
  signal?: AbortSignal;
  /** Default `DEFAULT_FLOW_LIMITS`. Pass one object for every run (it is not copied). */
  limits?: FlowLimits;
  /**
   * Where a run whose slice is used up waits for its next one; share one per process.
   * Default: one `FairScheduler` per process, deferring with `setTimeout(…, 0)`.
   */
  scheduler?: FlowScheduler;
  /** Told what every block did (test runs); absent on live requests. */
  tracer?: FlowTracer;
  /** Told how many bytes of values the run keeps as they change (see `MemoryAccount`). */
  memory?: MemoryAccount;
}

/**
 * The memory the runs of one project hold, as `FlowRun.keep` counts it: `add` is called with
 * the change each time a value is kept, and with minus the whole when the run ends. A server
 * uses it to tell which projects hold the most when its heap runs high. `add` returns false to
 * refuse growth (nothing is added): the run then stops with 503 `unavailable`.
 */
export interface MemoryAccount {
  add(bytes: number): boolean;
}
