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

export interface TextGenerationPort {
  generate(
    request: { prompt: string; model: string | null; temperature: number | null; max_tokens: number | null },
    signal: AbortSignal,
  ): Promise<string>;
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
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(message);
    this.name = 'IntegrationError';
  }
}

export interface FlowPorts {
  http?: HttpPort;
  images?: ImagePort;
  /** Without it every Match Regex runs on the calling thread. */
  regex?: RegexPort;
  textGeneration?: TextGenerationPort;
  email?: EmailPort;
  /** The project's data tables; without it the table blocks fail (no data database configured). */
  data?: DataPort;
  /**
   * The project's secrets by name, as `{secrets.NAME}` reads them (the live or the preview values:
   * the caller picks). Absent: the project has none, and a flow reading one fails.
   */
  secrets?: ReadonlyMap<string, string>;
  /** Injectable for tests; default `() => new Date()`. */
  now?: () => Date;
  /** Injectable for tests; default `crypto.randomUUID`. */
  uuid?: () => string;
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
