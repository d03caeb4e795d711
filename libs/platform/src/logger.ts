import pino, { type Logger } from 'pino';

/** JSON logs on stdout; secrets never reach them (redact covers the usual carriers). */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'api_key', '*.api_key', 'password', '*.password', 'key', '*.secret'],
      censor: '[redacted]',
    },
  });
}
export type { Logger };
