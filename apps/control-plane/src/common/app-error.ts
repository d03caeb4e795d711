import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from '@flowgate/contracts';

/**
 * The one error type services throw. The code decides the HTTP status (ERROR_STATUS in
 * @flowgate/contracts); the global exception filter renders `{success:false, code, message, details}`.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const invalidRequest = (message: string, details: ErrorDetail[]): AppError =>
  new AppError('invalid_request', message, details);

export const conflict = (path: string, message: string): AppError =>
  new AppError('conflict', `${path}: ${message}`, [{ path, message }] satisfies ErrorDetail[]);
