import type { FlowResult } from './flow-io';

/** Why a block did nothing: no integration behind its port, or a test run that only shows the email. */
export type SkipReason = 'integration_not_configured' | 'dry_run';

/** What a tracer learns of the block being run. */
export interface TracedBlock {
  readonly id: string;
  readonly type: string;
  readonly label: string;
}

/**
 * Told what every block of one run did, in order (test runs in the Workshop). Optional: an
 * untraced run pays one null check per block and nothing else.
 */
export interface FlowTracer {
  blockStarted(block: TracedBlock): void;
  /**
   * The block finished: `stored` is what it wrote (its `{result.REF}` / `{local.NAME}`, a
   * Respond's answer), `branch` a Condition's outcome, `skipped` why it did nothing.
   */
  blockEnded(block: TracedBlock, outcome: { stored: unknown; branch: boolean | null; skipped: SkipReason | null }): void;
  /** The block failed, or the run was stopped while it ran (deadline, CPU budget, cancellation). */
  blockFailed(block: TracedBlock, error: Extract<FlowResult, { type: 'error' }>): void;
}
