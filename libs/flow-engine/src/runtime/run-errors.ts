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

/** Why a run stopped before it finished: its deadline passed, or the caller cancelled it. */
export class RunInterrupted extends Error {
  constructor(readonly reason: 'deadline' | 'cancelled') {
    super(reason === 'deadline' ? 'The flow did not finish before its deadline' : 'The flow was cancelled');
    this.name = 'RunInterrupted';
  }
}
