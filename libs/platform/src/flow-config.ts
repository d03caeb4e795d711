import type { FlowLimits } from '@flowgate/flow-engine';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { env } from './config';

/**
 * The variables that bound a flow run, read by every process that runs flows: the gateway (live
 * requests) and the control plane (Workshop test runs), so both apply the same limits and
 * deadline (docs/gateway.md "One project cannot stall another"). Spread into an app's schema.
 */
export const flowConfigShape = {
  FLOW_TIMEOUT_MS: env.positiveInt(15000),
  /** Largest value a block may make. */
  FLOW_MAX_VALUE_CHARS: env.positiveInt(1024 * 1024),
  FLOW_MAX_REGEX_PATTERN_CHARS: env.positiveInt(4096),
  FLOW_MAX_REGEX_INPUT_CHARS: env.positiveInt(1024 * 1024),
  /** Memory the values one run keeps may take in all (2 bytes per character); over it the run answers 422 run_memory_exceeded. */
  FLOW_MAX_RUN_BYTES: env.positiveInt(32 * 1024 * 1024),
  /** Time one request's flow may hold the event loop in all. */
  FLOW_CPU_BUDGET_MS: env.positiveInt(1000),
  /**
   * Longest stretch a flow holds the event loop before others go first; above 40 the 50 ms
   * promise could not hold. 5: a request arriving during a long run's slice waits at most that
   * (docs/gateway.md, "Where the rest of the time goes").
   */
  FLOW_SLICE_MS: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(40, 'must be at most 40 (ms)').default(5),
  /** Threads for image filters and long regular expressions (default: the machine's cores), and how many tasks of one project may wait for one. */
  FLOW_WORKER_THREADS: env.positiveInt(availableParallelism()),
  FLOW_WORKER_QUEUE: env.positiveInt(64),
  /** Longest one task may run on a worker thread; then the thread is terminated (and replaced) and the block fails. */
  FLOW_WORKER_TASK_MS: env.positiveInt(5000),
};

export type FlowConfig = { [K in keyof typeof flowConfigShape]: z.infer<(typeof flowConfigShape)[K]> };

/** The engine's limits from the FLOW_* variables. */
export const flowLimitsOf = (config: FlowConfig): FlowLimits => ({
  maxValueChars: config.FLOW_MAX_VALUE_CHARS,
  maxRegexPatternChars: config.FLOW_MAX_REGEX_PATTERN_CHARS,
  maxRegexInputChars: config.FLOW_MAX_REGEX_INPUT_CHARS,
  cpuBudgetMs: config.FLOW_CPU_BUDGET_MS,
  sliceMs: config.FLOW_SLICE_MS,
  maxRunBytes: config.FLOW_MAX_RUN_BYTES,
});
