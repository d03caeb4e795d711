/**
 * Thrown by a block executor when the block cannot do its work; the executor turns it into a
 * `flow_error` result whose message starts with the block's label and id:
 * "Decode Text (n3): input is not valid hex".
 */
export class BlockFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockFailure';
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
