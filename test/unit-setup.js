// Setup of the unit and dashboard tiers (jest.config.js): they run with no PostgreSQL, Redis or
// Kafka. Every service address points at a port nothing listens on, so a unit test that reaches
// for a service fails at once instead of quietly using one a developer happens to run.
const closed = '127.0.0.1:9';

Object.assign(process.env, {
  NODE_ENV: 'test',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  DATABASE_URL: `postgresql://postgres@${closed}/flowgate_unit`,
  TEST_DATABASE_ADMIN_URL: `postgresql://postgres@${closed}/postgres`,
  REDIS_URL: `redis://${closed}`,
  KAFKA_BROKERS: closed,
});
delete process.env.REDIS_CLUSTER_NODES;
