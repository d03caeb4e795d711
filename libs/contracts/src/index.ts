export * from './redis-layout';
export * from './request-log-event';
export * from './error-codes';
export * from './api-key-format';
export * from './json-depth';
export * from './data-tables';
export * from './secrets';
