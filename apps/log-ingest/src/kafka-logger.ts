import type { Logger } from '@flowgate/platform';
import { logLevel, type logCreator } from 'kafkajs';

/** Routes kafkajs' own log lines into the service's pino logger. */
export function kafkaLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, logger: _name, ...fields } = log;
      const method = level === logLevel.ERROR ? 'error' : level === logLevel.WARN ? 'warn' : level === logLevel.INFO ? 'info' : 'debug';
      logger[method]({ kafkajs: namespace, ...fields }, message);
    };
}
