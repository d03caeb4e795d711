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
  FLOW_TIMEOUT_MS: env.positiveInt(15000).describe('per-request flow deadline (→ 504 `flow_timeout`); test runs use the same'),
  /** Largest value a block may make. */
  FLOW_MAX_VALUE_CHARS: env.positiveInt(1024 * 1024).describe('largest value a block may make, in characters (a list or object: its JSON length) → 422 `value_too_large`'),
  FLOW_MAX_REGEX_PATTERN_CHARS: env.positiveInt(4096).describe('longest pattern Match Regex compiles → 422 `value_too_large`'),
  FLOW_MAX_REGEX_INPUT_CHARS: env.positiveInt(1024 * 1024).describe('longest text Match Regex searches → 422 `value_too_large`'),
  /** Memory the values one run keeps may take in all (2 bytes per character); over it the run answers 422 run_memory_exceeded. */
  FLOW_MAX_RUN_BYTES: env.positiveInt(32 * 1024 * 1024).describe('memory the values one run keeps may take in all, text counted 2 bytes per character → 422 `run_memory_exceeded` naming the block'),
  FLOW_MAX_CALL_DEPTH: z.coerce
    .number({ error: 'must be a whole number' })
    .int()
    .min(1)
    .max(20)
    .default(5)
    .describe('how deep Call Function blocks may nest (an endpoint calling a function is depth 1); a deeper call fails the run naming the variable'),
  FLOW_MAX_ITERATIONS: env
    .positiveInt(10_000)
    .describe('loop iterations one run may do in all, every For Each counted; beyond, the run answers 422 iteration_limit naming the block'),
  /** Time one request's flow may hold the event loop in all. */
  FLOW_CPU_BUDGET_MS: env.positiveInt(1000).describe('event-loop time one request\'s flow may use in all → 504 `flow_cpu_exceeded`'),
  /**
   * Longest stretch a flow holds the event loop before others go first; above 40 the 50 ms
   * promise could not hold. 5: a request arriving during a long run's slice waits at most that
   * (the noisy-neighbour drill, `npm run test:noisy`).
   */
  FLOW_SLICE_MS: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(40, 'must be at most 40 (ms)').default(5).describe('longest slice a flow holds the event loop before others go first (1–40)'),
  /** Threads for image filters and long regular expressions (default: the machine's cores), and how many tasks of one project may wait for one. */
  FLOW_WORKER_THREADS: env.positiveInt(availableParallelism()).describe('worker threads (nice +10) for image filters and regular expressions whose cost is over the event loop\'s budget, shared between projects round robin (a Workshop test run, alone in its test-run thread, has one such thread of its own: at most `TEST_RUN_THREADS` in the control plane)').meta({ defaultText: 'the machine\'s cores (`os.availableParallelism()`)' }),
  FLOW_WORKER_QUEUE: env.positiveInt(64).describe('tasks of one project that may wait for a worker thread; beyond it the block fails at once'),
  /** Longest one task may run on a worker thread; then the thread is terminated (and replaced) and the block fails. */
  FLOW_WORKER_TASK_MS: env.positiveInt(5000).describe('longest one task may run on a worker thread; then the thread is terminated and replaced, and the block fails (500 `flow_error`)'),
  CODE_MEMORY_MB: z.coerce
    .number({ error: 'must be a whole number' })
    .int()
    .min(4, 'must be at least 4 (MB)')
    .max(1024, 'must be at most 1024 (MB)')
    .default(32)
    .describe('memory one Run Code execution may allocate in its sandbox (4–1024); over it the block fails with 422 `code_memory_exceeded`'),
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
  maxCallDepth: config.FLOW_MAX_CALL_DEPTH,
  maxIterations: config.FLOW_MAX_ITERATIONS,
});
