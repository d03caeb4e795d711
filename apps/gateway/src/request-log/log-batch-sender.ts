/** Where batches of events (each its JSON) go: Kafka in production; tests may wrap it to simulate an outage. */
export interface LogBatchSender {
  /** Resolves once the batch is acknowledged; rejects when it was not (the batch is retried). */
  send(events: string[]): Promise<void>;
  close(): Promise<void>;
}
