// The repository's test kit: what tests and benchmarks share (docs/development.md). Nx lets
// only tests, test helpers and benchmarks import it (eslint.config.mjs).
export * from './anthropic-messages';
export * from './anthropic-sse';
export * from './app-stack';
export * from './banded-png';
export * from './gateway-process';
export * from './event-stream';
export * from './http-call';
export * from './json-schema-check';
export * from './kafka';
export * from './polling';
export * from './ports';
export * from './private-redis';
export * from './processes';
export * from './publication';
export * from './raw-exchange';
export * from './redis-backend';
export * from './redis-command-log';
export * from './request-log-fixtures';
export * from './stand-in';
export * from './throwaway-database';
