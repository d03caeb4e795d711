import type { FlowResult } from './flow-io';
/**
 * Thrown by a block executor when the block cannot do its work; the executor turns it into a
 * `flow_error` result whose message starts with the block's label and id:
 * "Decode Text (n3): input is not valid hex".
 */
export class BlockFailure extends Error {
  /**
   * `code` and `status` are what `{REF.error}` holds when the block's `error` handle is
   * connected (`timeout`, `http_status` with the answer's status, …); `failed` by default.
   * `answers`: the run's answer (when nothing catches the failure) has this code and status
   * (Run Code's `code_timeout` 504); otherwise it is a 500 `flow_error`.
   */
  constructor(
    message: string,
    readonly code = 'failed',
    readonly status?: number,
    readonly answers = false,
  ) {
    super(message);
    this.name = 'BlockFailure';
  }
}

/** Thrown by Call Function when a value does not fit the function's input: 422 `invalid_argument`. */
export class InvalidArgument extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidArgument';
  }
}

/** Thrown by Call Function when the function's run failed: the caller's run fails with the same status and code. */
export class FunctionFailed extends Error {
  constructor(readonly result: Extract<FlowResult, { type: 'error' }>) {
    super(result.message);
    this.name = 'FunctionFailed';
  }
}

/**
 * Thrown when a block would produce (or read) more than the run's limits allow; the executor
 * turns it into a 422 `value_too_large` result naming the block:
 * "Manipulate Text (n7): the result would be 2,097,152 characters; the limit is 1,048,576".
 */
export class ValueTooLarge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValueTooLarge';
  }
}

/**
 * Thrown by `FlowRun.keep` when the values a run holds would be more than FLOW_MAX_RUN_BYTES;
 * the executor turns it into a 422 `run_memory_exceeded` result naming the block.
 */
export class RunMemoryExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunMemoryExceeded';
  }
}

const INTERRUPTIONS = {
  deadline: 'The flow did not finish before its deadline',
  cancelled: 'The flow was cancelled',
  cpu_budget: 'The flow used up its CPU budget',
  memory: 'The process running the flow is short of memory',
} as const;

/**
 * Why a run stopped before it finished: its deadline passed, its CPU budget ran out, the caller
 * cancelled it, or the process refused it more memory (`MemoryAccount.add`).
 */
export class RunInterrupted extends Error {
  constructor(readonly reason: keyof typeof INTERRUPTIONS) {
    super(INTERRUPTIONS[reason]);
    this.name = 'RunInterrupted';
  }
}

/**
 * Thrown when a run would start more loop iterations than FLOW_MAX_ITERATIONS allows in all;
 * the executor turns it into a 422 `iteration_limit` result naming the For Each block.
 */
export class IterationLimitReached extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IterationLimitReached';
  }
}
