import { REQUEST_LOG_MESSAGE_MAX, REQUEST_LOG_QUERY_MAX } from '@flowgate/contracts';

/** What the request handler knows about a finished request. */
export interface RequestLogFields {
  id: string;
  projectId: string;
  endpointId: string | null;
  path: string;
  method: string;
  status: number;
  code: string | null;
  durationMs: number;
  keyId: string | null;
  /** Raw query string without `?` (cut here to REQUEST_LOG_QUERY_MAX). */
  query: string;
  /** Error message of a 4xx/5xx answer (cut here to REQUEST_LOG_MESSAGE_MAX), null on success. */
  message: string | null;
  errorNodeId: string | null;
  /** Arrival, ms since the epoch. */
  arrivalMs: number;
  /** Served on the preview address; live requests leave the field out (it reads as live). */
  preview: boolean;
  /** An MCP client's tool call (mcp/mcp-route.ts); HTTP requests leave the field out (it reads as http). */
  mcp?: boolean;
  /** Answered as a stream (Stream Text); other requests leave the field out. */
  streamed?: boolean;
  /** A cached route's answer: served from the cache (`hit`) or by the flow (`miss`); null for other routes (left out). */
  cache?: 'hit' | 'miss' | null;
  /** The `details` JSON (request-details.ts); null leaves the field out (it reads as null). */
  details?: string | null;
}

const quotedOrNull = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));
/** Most requests have no query: no JSON.stringify call, no new string for them. */
const quotedQuery = (query: string): string =>
  query === '' ? '""' : JSON.stringify(query.length > REQUEST_LOG_QUERY_MAX ? query.slice(0, REQUEST_LOG_QUERY_MAX) : query);
const quotedMessage = (message: string | null): string =>
  quotedOrNull(message !== null && message.length > REQUEST_LOG_MESSAGE_MAX ? message.slice(0, REQUEST_LOG_MESSAGE_MAX) : message);

/** Requests arrive many per millisecond under load: format each millisecond once. */
let isoFor = -1;
let iso = '';
function isoTime(ms: number): string {
  if (ms !== isoFor) {
    iso = new Date(ms).toISOString();
    isoFor = ms;
  }
  return iso;
}

/**
 * The `RequestLogEvent` (v1) JSON of one request, written field by field: the same text
 * `JSON.stringify` gives for the event object, without building the object first (this runs
 * once per request).
 */
export function requestLogEventJson(f: RequestLogFields): string {
  return (
    `{"v":1,"id":"${f.id}","project_id":"${f.projectId}","endpoint_id":${quotedOrNull(f.endpointId)}` +
    `,"path":${JSON.stringify(f.path)},"method":${JSON.stringify(f.method)},"status":${f.status}` +
    `,"code":${quotedOrNull(f.code)},"duration_ms":${f.durationMs},"key_id":${quotedOrNull(f.keyId)}` +
    `,"query":${quotedQuery(f.query)},"message":${quotedMessage(f.message)},"error_node_id":${quotedOrNull(f.errorNodeId)}` +
    `,"time":"${isoTime(f.arrivalMs)}"${f.preview ? ',"environment":"preview"' : ''}${f.mcp === true ? ',"trigger":"mcp"' : ''}${f.streamed === true ? ',"streamed":true' : ''}` +
    `${f.cache == null ? '' : `,"cache":"${f.cache}"`}${f.details == null ? '' : `,"details":${JSON.stringify(f.details)}`}}`
  );
}
