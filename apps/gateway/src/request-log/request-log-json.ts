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
  /** Arrival, ms since the epoch. */
  arrivalMs: number;
}

const quotedOrNull = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));

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
    `,"time":"${isoTime(f.arrivalMs)}"}`
  );
}
