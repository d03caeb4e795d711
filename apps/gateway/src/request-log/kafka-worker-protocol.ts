import type { GatewayConfig } from '../config';

/**
 * Messages between the gateway's HTTP thread and its request-log worker thread.
 *
 * To the worker: `{ lines }` — events, fire and forget (the worker owns buffering, retries and
 * the bound from then on); `{ close, timeoutMs }` — flush and disconnect.
 * From the worker: `{ stats }` — buffer depth and dropped count, when they change (at most
 * every 100 ms); `{ closed }` — events that could not be delivered at shutdown.
 */
export interface KafkaWorkerData {
  brokers: string[];
  topic: string;
  clientId: string;
  logLevel: string;
  maxEvents: number;
  lingerMs: number;
  /** GATEWAY_LOG_COMPRESSION. */
  compression: LogCompression;
}

export type LogCompression = GatewayConfig['GATEWAY_LOG_COMPRESSION'];

export interface LogStats {
  depth: number;
  dropped: number;
}

export type ToWorker = { lines: string } | { close: true; timeoutMs: number };
export type FromWorker = { stats: LogStats } | { closed: number };

/**
 * Events travel as one string, their JSON lines joined by `\n`: copying one flat string between
 * threads is far cheaper than cloning objects, and JSON never holds a raw newline.
 */
export function forEachEvent(lines: string, onEvent: (value: string) => void): void {
  let start = 0;
  while (start < lines.length) {
    let end = lines.indexOf('\n', start);
    if (end === -1) end = lines.length;
    onEvent(lines.slice(start, end));
    start = end + 1;
  }
}
