import type { SecretMasker } from '@flowgate/contracts';
import type { FlowResult, FlowTracer, SkipReason, TracedBlock } from '@flowgate/flow-engine';
import { performance } from 'node:perf_hooks';
import type { TraceEntry } from './dto/test-run.dto';

/** An output whose JSON is longer (bytes, UTF-8) is cut to this and sent as a string. */
export const MAX_TRACE_OUTPUT_BYTES = 16 * 1024;

/** Blocks that end the flow: what they stored is the answer (a `FlowResult`). */
const ENDS = new Set(['respond', 'return_error']);

const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

/** The body a caller receives for a flow's error (what the gateway sends). */
export const errorBody = (error: Extract<FlowResult, { type: 'error' }>) => ({ success: false, code: error.code, message: error.message });

/** A Respond / Return Error block's output: the answer it made, as status and body. */
function answerOf(result: FlowResult): { status: number; body: unknown } {
  return result.type === 'response' ? { status: result.status, body: result.body ?? {} } : { status: result.status, body: errorBody(result) };
}

/**
 * The value as JSON would carry it (undefined dropped, dates as text), or its first 16 KiB as a
 * string when its JSON is longer; the cut never splits a UTF-8 character.
 */
export function traceOutput(value: unknown): { output: unknown; truncated: boolean } {
  const json = JSON.stringify(value);
  if (json === undefined) return { output: undefined, truncated: false };
  const bytes = Buffer.from(json, 'utf8');
  if (bytes.length <= MAX_TRACE_OUTPUT_BYTES) return { output: JSON.parse(json) as unknown, truncated: false };
  let end = MAX_TRACE_OUTPUT_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { output: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

/**
 * Records what every block of one test run did, in the order the engine ran them. With a
 * masker, the project's secret values are masked in every output and error message (before an
 * output is cut to its 16 KiB, so no part of a value is left at the cut).
 */
export class TraceRecorder implements FlowTracer {
  readonly entries: TraceEntry[] = [];
  private open: TraceEntry | null = null;
  private startedAt = 0;

  constructor(private readonly masker: SecretMasker | null = null) {}

  blockStarted(block: TracedBlock): void {
    this.open = { node_id: block.id, type: block.type, label: block.label, status: 'ok', duration_ms: 0 };
    this.entries.push(this.open);
    this.startedAt = performance.now();
  }

  blockEnded(block: TracedBlock, outcome: { stored: unknown; branch: boolean | null; skipped: SkipReason | null }): void {
    const entry = this.close(block);
    if (outcome.skipped !== null) {
      entry.status = 'skipped';
      entry.skipped_reason = outcome.skipped;
    }
    let shown = outcome.stored;
    if (outcome.branch !== null) {
      entry.branch = outcome.branch ? 'true' : 'false';
      shown = outcome.branch;
    } else if (ENDS.has(block.type) && shown !== null && typeof shown === 'object') shown = answerOf(shown as FlowResult);
    const { output, truncated } = traceOutput(this.masker === null ? shown : this.masker.value(shown));
    if (output !== undefined) entry.output = output;
    if (truncated) entry.truncated = true;
  }

  blockFailed(block: TracedBlock, error: Extract<FlowResult, { type: 'error' }>): void {
    // The deadline can strike between two blocks: the next one is then named, though it never started.
    const entry = this.open?.node_id === block.id ? this.close(block) : this.added(block);
    entry.status = 'error';
    entry.error = { code: error.code, message: this.masker === null ? error.message : this.masker.text(error.message) };
  }

  private close(block: TracedBlock): TraceEntry {
    const entry = this.open ?? this.added(block);
    entry.duration_ms = roundMs(performance.now() - this.startedAt);
    this.open = null;
    return entry;
  }

  private added(block: TracedBlock): TraceEntry {
    const entry: TraceEntry = { node_id: block.id, type: block.type, label: block.label, status: 'ok', duration_ms: 0 };
    this.entries.push(entry);
    return entry;
  }
}
