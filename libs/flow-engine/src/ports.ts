import type { PreparedFlow } from './execute/prepare-flow';
/**
 * Side effects reach the engine only through these ports. The gateway builds one `FlowPorts`
 * per project (integrations differ per project); a missing optional port means "not
 * configured": the block that needs it is skipped and the flow continues.
 * Implementations live in `libs/integrations`.
 */

export type EgressErrorCode = 'egress_blocked' | 'timeout' | 'connection_failed' | 'response_too_large';

/** Thrown by `HttpPort.request` (and by image fetches); `http_request` turns it into `{name.error}`. */
export class EgressError extends Error {
  constructor(
    readonly code: EgressErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EgressError';
  }
}

export interface OutboundRequest {
  method: string;
  url: string;
  /** Header names as given by the flow; at most 10. */
  headers: Record<string, string>;
  /** Already serialised; undefined for GET/HEAD. */
  body?: string;
}

export interface OutboundResponse {
  status: number;
  /** Lowercased header names. */
  headers: Record<string, string>;
  body: string;
}

export interface HttpPort {
  request(request: OutboundRequest, signal: AbortSignal): Promise<OutboundResponse>;
}

export type ImageOperation = 'contrast' | 'brightness' | 'saturation' | 'grayscale' | 'invert' | 'blur' | 'hue_rotate';

export interface ImagePort {
  /** Fetches the image through the egress guard, filters it, stores the PNG; returns its absolute URL. */
  manipulate(request: { image_url: string; operation: ImageOperation; value: number }, signal: AbortSignal): Promise<string>;
}

/** A Match Regex run handed to another thread (`runRegexTask` there). */
export interface RegexTask {
  pattern: string;
  flags: string;
  input: string;
  maxResultChars: number;
}

export type RegexOutcome =
  | { ok: true; result: { matches: string[]; captures: Array<string | null>; isMatch: boolean; [group: string]: unknown } }
  | { ok: false; reason: 'invalid_pattern' | 'too_large'; message: string };

export interface RegexPort {
  /**
   * Runs a regular expression off the event loop (a worker thread), for patterns and texts
   * large enough that matching could take long. The signal fires at the deadline; the
   * implementation stops the work then.
   */
  match(task: RegexTask, signal: AbortSignal): Promise<RegexOutcome>;
}

export interface TextGenerationRequest {
  prompt: string;
  model: string | null;
  temperature: number | null;
  max_tokens: number | null;
}

/** Tokens the model read and wrote for one answer, as the provider counts them. */
export interface TextUsage {
  input_tokens: number;
  output_tokens: number;
}

/** What a streamed answer yields, in order: text as the model writes it, then `done` once. */
export type TextStreamEvent = { type: 'text'; text: string } | { type: 'done'; usage: TextUsage };

/**
 * A model's answer being written. Iterating it yields the events as the provider sends them;
 * it throws `IntegrationError` when the provider fails mid-answer (or falls silent too long).
 */
export interface TextStream extends AsyncIterable<TextStreamEvent> {
  /** Stops the upstream call (the caller went away); the iteration then ends without an error. */
  cancel(): void;
}

/** One Run Code execution handed to the sandbox (`CodePort.run`). */
export interface CodeTask {
  /** The body of a function; `input` is in scope. */
  code: string;
  /** The block's inputs, resolved: `input` inside the code. */
  input: Record<string, unknown>;
  /** CPU time the code may take, already capped by the flow's deadline. */
  timeoutMs: number;
  /** Longest JSON text of the result (FLOW_MAX_VALUE_CHARS). */
  maxResultChars: number;
}

/** One `console.*` call of the code, its arguments as text. */
export interface ConsoleLine {
  level: 'log' | 'info' | 'warn' | 'error';
  text: string;
}

/** Why code did not give a result: each becomes a block failure with its own code. */
export type CodeFailureCode = 'code_error' | 'code_timeout' | 'code_memory_exceeded' | 'value_too_large';

export type CodeOutcome =
  | { ok: true; result: unknown; console: ConsoleLine[] }
  | { ok: false; code: CodeFailureCode; message: string; console: ConsoleLine[] };

export interface CodePort {
  /**
   * Runs short code at once on the calling thread: the outcome, or null when the code needs
   * longer than the caller may hold its thread (then `run` runs it again elsewhere, which is
   * safe: code reaches nothing outside its sandbox, so a run has no side effects).
   */
  runNow?(task: CodeTask): CodeOutcome | null;
  /**
   * Runs the code in a sandbox that reaches nothing of the host, bounded in CPU time and
   * memory, off the calling thread. Never rejects for anything the code does; the signal fires
   * at the flow's deadline or on cancellation.
   */
  run(task: CodeTask, signal: AbortSignal): Promise<CodeOutcome>;
}

export interface TextGenerationPort {
  generate(request: TextGenerationRequest, signal: AbortSignal): Promise<string>;
  /**
   * Starts a streamed answer; resolves once the provider accepted the call (it refused: rejects,
   * as `generate` does). The signal bounds only the start: the stream outlives the flow run, and
   * is stopped by `cancel`. Every adapter has it; a port without it cannot stream.
   */
  stream?(request: TextGenerationRequest, signal: AbortSignal): Promise<TextStream>;
}

export interface EmailMessage {
  to: string;
  /** `Display Name <addr@domain>` */
  from: string;
  subject: string;
  body: string;
}

export interface EmailPort {
  /** Domains the project's email integration has verified (From must use one). */
  readonly verifiedDomains: readonly string[];
  /** A test run's port: Send Email checks the message, then shows it instead of calling `enqueue`. */
  readonly dryRun?: boolean;
  /**
   * Enqueues delivery; resolves once the job is stored, not when it is delivered. The signal
   * fires at the flow's deadline (implementations may ignore it).
   */
  enqueue(message: EmailMessage, signal?: AbortSignal): Promise<void>;
}

/** Thrown by an integration port when the provider refused the call; becomes a flow error. */
export class IntegrationError extends Error {
  /** The provider's HTTP status, when it answered with one (a 5xx or 429 may be retried). */
  readonly status?: number;
  /** The provider could not be reached (connection, timeout): the call may be retried. */
  readonly network?: boolean;
  /** The provider's `Retry-After`, in ms. */
  readonly retryAfterMs?: number;

  constructor(
    readonly provider: string,
    message: string,
    details: { status?: number; network?: boolean; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'IntegrationError';
    Object.assign(this, details);
  }
}

export interface FlowPorts {
  http?: HttpPort;
  images?: ImagePort;
  /** Without it every Match Regex runs on the calling thread. */
  regex?: RegexPort;
  /** The JavaScript sandbox of Run Code; without it a Run Code block fails (no sandbox in this process). */
  code?: CodePort;
  textGeneration?: TextGenerationPort;
  email?: EmailPort;
  /** The project's data tables; without it the table blocks fail (no data database configured). */
  data?: DataPort;
  /**
   * The project's secrets by name, as `{secrets.NAME}` reads them (the live or the preview values:
   * the caller picks). Absent: the project has none, and a flow reading one fails.
   */
  secrets?: ReadonlyMap<string, string>;
  /**
   * The project's functions by id, prepared, as Call Function runs them: the live versions for
   * live requests, the saved drafts for the preview address and test runs. Absent: none.
   */
  functions?: ReadonlyMap<string, PreparedFlow>;
  /** Injectable for tests; default `() => new Date()`. */
  now?: () => Date;
  /** Injectable for tests; default `crypto.randomUUID`. */
  uuid?: () => string;
  /** Waits between retry attempts; injectable for tests (a fake clock). Default: a timer, ended early by the signal. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** What the table blocks' port refuses; the engine answers with the code's status (422, 409, 507). */
export type DataPortErrorCode = 'invalid_value' | 'unique_violation' | 'data_limit_reached' | 'unknown_table' | 'unknown_column';

export class DataPortError extends Error {
  constructor(
    readonly code: DataPortErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DataPortError';
  }
}

/** One condition of a table block's filter, its value resolved. */
export interface DataCondition {
  column: string;
  operator: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'in' | 'is_null' | 'is_not_null';
  value?: unknown;
}

/** A stored row: `id`, `created_at`, `updated_at` and one field per column. */
export type DataRowValue = Record<string, unknown>;

/**
 * The project's data tables, by name (docs/data-tables.md). Each call is one statement; a
 * name the project has no table of is a `DataPortError('unknown_table')` — another project's
 * tables cannot be named at all.
 */
export interface DataPort {
  query(table: string, request: { filter: DataCondition[]; sort: { column: string; direction: 'asc' | 'desc' } | null; limit: number }, signal: AbortSignal): Promise<DataRowValue[]>;
  get(table: string, id: string, signal: AbortSignal): Promise<DataRowValue | null>;
  insert(table: string, values: Record<string, unknown>, signal: AbortSignal): Promise<DataRowValue>;
  update(table: string, filter: DataCondition[], values: Record<string, unknown>, signal: AbortSignal): Promise<DataRowValue[]>;
  delete(table: string, filter: DataCondition[], signal: AbortSignal): Promise<number>;
}
