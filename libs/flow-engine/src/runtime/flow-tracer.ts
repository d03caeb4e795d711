import type { ConsoleLine } from '../ports';
import type { FlowResult } from './flow-io';

/** Why a block did nothing: no integration behind its port, or a test run that only shows the email. */
export type SkipReason = 'integration_not_configured' | 'dry_run';

/** What a tracer learns of the block being run. */
export interface TracedBlock {
  readonly id: string;
  readonly type: string;
  readonly label: string;
  /** Inside a loop body: the For Each running it (the innermost one)… */
  readonly loop_id?: string;
  /** …and the index of the element (as `{local.ITEM_index}`, from 0). */
  readonly iteration?: number;
}

/** A block's failure as `{REF.error}` holds it, when the block's `error` handle is connected. */
export interface CaughtError {
  message: string;
  code: string;
  status?: number;
}

/** One attempt of a block that retries: what came of it and how long the block then waited. */
export interface TracedAttempt {
  /** From 1. */
  attempt: number;
  /** `ok`, or the failure that was retried or ended the block (`timeout`, `http_503`, …). */
  outcome: string;
  /** The wait before the next attempt; 0 after the last. */
  wait_ms: number;
}

/**
 * Told what every block of one run did, in order (test runs in the Workshop). Optional: an
 * untraced run pays one null check per block and nothing else.
 */
export interface FlowTracer {
  blockStarted(block: TracedBlock): void;
  /**
   * The block finished: `stored` is what it wrote (its `{result.REF}` / `{local.NAME}`, a
   * Respond's answer), `branch` a Condition's outcome, `skipped` why it did nothing, `caught` the
   * failure that sent the flow on by the `error` handle, `failed` the failure the block kept in its
   * result while the flow went on (no `error` handle).
   */
  blockEnded(block: TracedBlock, outcome: { stored: unknown; branch: boolean | null; skipped: SkipReason | null; caught?: CaughtError; failed?: CaughtError }): void;
  /**
   * The block running wrote to its console (Run Code); told before it ends or fails. `block`:
   * the block, when the tracer knows it (a loop iteration's, whose blocks run beside others').
   */
  blockLogged?(lines: readonly ConsoleLine[], block?: TracedBlock): void;
  /** The block failed, or the run was stopped while it ran (deadline, CPU budget, cancellation). */
  blockFailed(block: TracedBlock, error: Extract<FlowResult, { type: 'error' }>): void;
  /** A Call Function block (started, not ended) calls its function: the tracer of the function's blocks, nested under it. */
  nested?(block: TracedBlock): FlowTracer;
  /** A block that retries made an attempt (told before the block ends). */
  attempt?(block: TracedBlock, attempt: TracedAttempt): void;
  /** A For Each ran `count` iterations past the first ones traced in full (told when it ends). */
  iterationsNotShown?(loop: TracedBlock, count: number): void;
}
