import { bootApp } from '@flowgate/testing';

jest.setTimeout(60000);

describe('log-ingest boot failures: one line, exit 1', () => {
  it.each([
    ['a malformed variable', { LOG_INGEST_MAX_WAIT_MS: 'soon' }, /^log-ingest: invalid configuration — LOG_INGEST_MAX_WAIT_MS: /],
    ['the same topic for events and dead letters', { KAFKA_LOG_TOPIC: 'x', KAFKA_LOG_DLQ_TOPIC: 'x' }, /KAFKA_LOG_DLQ_TOPIC: must differ from KAFKA_LOG_TOPIC/],
    ['an unreachable Kafka', { KAFKA_BROKERS: '127.0.0.1:1' }, /^log-ingest: Kafka is not reachable at 127\.0\.0\.1:1 .*KAFKA_BROKERS$/],
    ['a database that does not exist', { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/flowgate_missing_db' }, /^log-ingest: PostgreSQL refused the connection .*DATABASE_URL$/],
  ])('%s', (_what, env, pattern) => {
    expect(bootApp('log-ingest', { LOG_INGEST_PORT: '0', ...env })).toEqual({ status: 1, lines: [expect.stringMatching(pattern)] });
  });
});
