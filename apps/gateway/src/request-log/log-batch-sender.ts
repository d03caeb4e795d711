/** One Kafka message: key = project id, value = the JSON event. */
export interface LogMessage {
  key: string;
  value: string;
}

/** Where batches go (Kafka in production; tests may wrap it to simulate an outage). */
export interface LogBatchSender {
  /** Resolves once the batch is acknowledged; rejects when it was not (the batch is retried). */
  send(messages: LogMessage[]): Promise<void>;
  close(): Promise<void>;
}
