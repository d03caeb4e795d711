import { EgressError, IntegrationError } from '../../ports';
import { BlockFailure, RunInterrupted } from '../../runtime/run-errors';
import type { FlowRun } from '../../runtime/flow-run';

/**
 * Turns what a port threw into the block's flow error. At the deadline the run's own
 * interruption wins, so the executor reports `flow_timeout` rather than a provider error.
 */
export function portFailure(run: FlowRun, error: unknown, action: string): Error {
  if (run.signal.aborted) return run.signal.reason as RunInterrupted;
  if (error instanceof BlockFailure) return error;
  if (error instanceof IntegrationError) return new BlockFailure(`${error.provider}: ${error.message}`, 'integration_error');
  if (error instanceof EgressError) return new BlockFailure(`${action} failed (${error.code}): ${error.message}`, error.code);
  return new BlockFailure(`${action} failed: ${error instanceof Error ? error.message : String(error)}`);
}
