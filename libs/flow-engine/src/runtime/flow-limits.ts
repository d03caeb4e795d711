/**
 * What one run may use. The gateway serves every project from one event loop, so nothing a
 * flow does may hold it for long or grow without bound (bounded-flows.int.spec.ts in the gateway): every value a block makes
 * is capped, and the run's time on the loop is metered and handed out in slices.
 */
export interface FlowLimits {
  /**
   * Largest value a block may produce, in characters of text (UTF-16 code units; a list or
   * object counts as its JSON length). Checked before the work wherever the size can be
   * worked out first (templates, concatenation, replace, split, encodings).
   */
  maxValueChars: number;
  /** Longest regular expression a Match Regex block may compile. */
  maxRegexPatternChars: number;
  /** Longest text a Match Regex block may search. */
  maxRegexInputChars: number;
  /** Time on the event loop (the run's own slices, summed) after which the run stops. */
  cpuBudgetMs: number;
  /** Longest slice a run holds the event loop before it lets other requests go first. */
  sliceMs: number;
  /**
   * Memory the values one run keeps may take in all (FLOW_MAX_RUN_BYTES), counted as 2 bytes
   * per character (see `FlowRun.keep`): many values under `maxValueChars` cannot add up.
   */
  maxRunBytes: number;
  /** How deep Call Function blocks may nest (FLOW_MAX_CALL_DEPTH): an endpoint's call is depth 1. */
  maxCallDepth: number;
  /** Loop iterations one run may do in all, every For Each counted (FLOW_MAX_ITERATIONS); beyond, 422 `iteration_limit`. */
  maxIterations: number;
}

export const DEFAULT_FLOW_LIMITS: Readonly<FlowLimits> = Object.freeze({
  maxValueChars: 1024 * 1024,
  maxRegexPatternChars: 4096,
  maxRegexInputChars: 1024 * 1024,
  cpuBudgetMs: 1000,
  sliceMs: 5,
  maxRunBytes: 32 * 1024 * 1024,
  maxCallDepth: 5,
  maxIterations: 10_000,
});
