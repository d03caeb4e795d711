/** Where the request handler puts one serialized event per request. */
export interface RequestLogSink {
  /** `value`: the event's JSON. Never blocks, never throws. */
  pushSerialized(value: string): void;
  /** Events not yet acknowledged by Kafka. */
  readonly depth: number;
  /** Events dropped because the buffer was full (since start). */
  readonly dropped: number;
  /** Sends what is buffered (for up to `timeoutMs`); resolves with the number of events not delivered. */
  close(timeoutMs?: number): Promise<number>;
}
