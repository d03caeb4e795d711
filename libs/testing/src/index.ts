// The repository's test kit: what tests and benchmarks share (docs/development.md). Nx lets
// only tests, test helpers and benchmarks import it (eslint.config.mjs).
export * from './banded-png';
export * from './gateway-process';
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
export * from './request-log-fixtures';
export * from './stand-in';
export * from './throwaway-database';
