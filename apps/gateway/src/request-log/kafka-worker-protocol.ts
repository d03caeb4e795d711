import type { LogMessage } from './log-batch-sender';

/**
 * Messages between the gateway and its Kafka worker thread: `{ id, lines }` → `{ id, error? }`
 * once Kafka acknowledged (or refused) the batch; `{ close: true }` → disconnect, then
 * `{ closed: true }`.
 */
export interface KafkaWorkerData {
  brokers: string[];
  topic: string;
  clientId: string;
  logLevel: string;
}

/**
 * A batch travels as one string, `key \t value` lines joined by `\n` (copying one string
 * between threads is far cheaper than cloning an array of objects). Keys are project ids and
 * values JSON: neither contains a raw tab or newline.
 */
export type ToWorker = { id: number; lines: string } | { close: true };

export function encodeBatch(messages: LogMessage[]): string {
  let lines = '';
  for (let i = 0; i < messages.length; i++) lines += (i === 0 ? '' : '\n') + messages[i]!.key + '\t' + messages[i]!.value;
  return lines;
}

export function decodeBatch(lines: string): LogMessage[] {
  return lines.split('\n').map((line) => {
    const tab = line.indexOf('\t');
    return { key: line.slice(0, tab), value: line.slice(tab + 1) };
  });
}

export type FromWorker = { id: number; error?: string } | { closed: true };

