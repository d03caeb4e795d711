import { safeMessage, type SecretMasker } from '@flowgate/contracts';
import type { CaughtError, ConsoleLine, FlowResult, FlowTracer, SkipReason, TracedAttempt, TracedBlock } from '@flowgate/flow-engine';
import { performance } from 'node:perf_hooks';
import type { TraceEntry } from './dto/test-run.dto';

/** An output whose JSON is longer (bytes, UTF-8) is cut to this and sent as a string. */
export const MAX_TRACE_OUTPUT_BYTES = 16 * 1024;

/** Blocks that end the flow: what they stored is the answer (a `FlowResult`; Stream Text's once read, `streamRead`). */
const ENDS = new Set(['respond', 'return_error', 'stream_text']);

const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

/** The body a caller receives for a flow's error (what the gateway sends). */
export const errorBody = (error: Extract<FlowResult, { type: 'error' }>) => ({ success: false, code: error.code, message: error.message });

/** A Respond / Return Error block's output: the answer it made, as status and body. */
function answerOf(result: FlowResult): { status: number; body: unknown } {
  if (result.type === 'stream') return { status: result.status, body: null };
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
  /** Blocks started and not ended, by block and iteration (iterations of a loop may run at once). */
  private readonly open = new Map<string, { entry: TraceEntry; startedAt: number }>();

  constructor(private readonly masker: SecretMasker | null = null) {}

  /** The key of the block started last (the one running, outside loops). */
  private lastStarted: string | null = null;

  blockStarted(block: TracedBlock): void {
    const key = keyOf(block);
    this.open.set(key, { entry: this.added(block), startedAt: performance.now() });
    this.lastStarted = key;
  }

  blockEnded(block: TracedBlock, outcome: { stored: unknown; branch: boolean | null; skipped: SkipReason | null; caught?: CaughtError; failed?: CaughtError }): void {
    const entry = this.close(block);
    if (outcome.failed !== undefined) {
      // The block failed and the flow went on without an error handle: its output says why too.
      entry.status = 'error';
      entry.error_in_result = true;
      entry.error = { ...outcome.failed, message: safeMessage(this.masker, outcome.failed.message) };
    }
    if (outcome.caught !== undefined) {
      // The block failed and the flow went on by its error handle.
      entry.status = 'error';
      entry.error_path = true;
      entry.error = { ...outcome.caught, message: safeMessage(this.masker, outcome.caught.message) };
      return;
    }
    if (outcome.skipped !== null) {
      entry.status = 'skipped';
      entry.skipped_reason = outcome.skipped;
    }
    let shown = outcome.stored;
    if (outcome.branch !== null) {
      entry.branch = outcome.branch ? 'true' : 'false';
      shown = outcome.branch;
    } else if (block.type === 'return_value' && shown !== null && typeof shown === 'object') shown = (shown as { body?: unknown }).body;
    else if (ENDS.has(block.type) && shown !== null && typeof shown === 'object') shown = answerOf(shown as FlowResult);
    const { output, truncated } = traceOutput(this.masker === null ? shown : this.masker.value(shown));
    if (output !== undefined) entry.output = output;
    if (truncated) entry.truncated = true;
  }

  /**
   * Run Code's console: the lines belong to the block running (`block`, told by a loop
   * iteration's tracer; else the block started last), masked like its output.
   */
  blockLogged(lines: readonly ConsoleLine[], block?: TracedBlock): void {
    const key = block === undefined ? this.lastStarted : keyOf(block);
    const entry = key === null ? undefined : this.open.get(key)?.entry;
    if (entry === undefined) return;
    const masker = this.masker;
    entry.console = lines.map(({ level, text }) => ({ level, text: masker === null ? text : masker.text(text) }));
  }

  /** The called function's blocks go under the Call Function's entry (which is open while it runs). */
  nested(block: TracedBlock): FlowTracer {
    const inner = new TraceRecorder(this.masker);
    const entry = this.open.get(keyOf(block))?.entry ?? this.added(block);
    entry.calls = inner.entries;
    return inner;
  }

  blockFailed(block: TracedBlock, error: Extract<FlowResult, { type: 'error' }>): void {
    // The deadline can strike between two blocks: the next one is then named, though it never started.
    const entry = this.open.has(keyOf(block)) ? this.close(block) : this.added(block);
    entry.status = 'error';
    entry.error = { code: error.code, message: safeMessage(this.masker, error.message) };
  }

  /** Stream Text's answer, read whole after the run (whole-stream.ts): its output, or its failure mid-answer. */
  streamRead(nodeId: string, result: FlowResult): void {
    const entry = this.entries.findLast((candidate) => candidate.node_id === nodeId);
    if (entry === undefined) return;
    if (result.type === 'error') {
      entry.status = 'error';
      entry.error = { code: result.code, message: this.masker === null ? result.message : this.masker.text(result.message) };
      delete entry.output;
      return;
    }
    const { output, truncated } = traceOutput(this.masker === null ? answerOf(result) : this.masker.value(answerOf(result)));
    entry.output = output;
    if (truncated) entry.truncated = true;
  }

  attempt(block: TracedBlock, attempt: TracedAttempt): void {
    const entry = this.open.get(keyOf(block))?.entry;
    if (entry !== undefined) (entry.attempts ??= []).push(attempt);
  }

  iterationsNotShown(loop: TracedBlock, count: number): void {
    const entry = this.open.get(keyOf(loop))?.entry;
    if (entry !== undefined) entry.iterations_not_shown = count;
  }

  private close(block: TracedBlock): TraceEntry {
    const key = keyOf(block);
    const open = this.open.get(key);
    this.open.delete(key);
    if (open === undefined) return this.added(block);
    open.entry.duration_ms = roundMs(performance.now() - open.startedAt);
    return open.entry;
  }

  private added(block: TracedBlock): TraceEntry {
    const entry: TraceEntry = { node_id: block.id, type: block.type, label: block.label, status: 'ok', duration_ms: 0 };
    if (block.loop_id !== undefined) {
      entry.loop_id = block.loop_id;
      entry.iteration = block.iteration;
    }
    this.entries.push(entry);
    return entry;
  }
}

/** A block of one iteration: the same block runs once per iteration of its loop. */
const keyOf = (block: TracedBlock): string => (block.loop_id === undefined ? block.id : `${block.id}@${block.loop_id}#${block.iteration}`);
