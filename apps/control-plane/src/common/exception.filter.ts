import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import { ERROR_STATUS, errorBody, type ErrorCode } from '@flowgate/contracts';
import type { Response } from 'express';
import { PinoLogger } from 'nestjs-pino';
import { AppError } from './app-error';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/** Errors passed on by express middleware carry `status` (http-errors). */
interface MiddlewareError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

/**
 * Prisma's messages quote the failed call with its arguments (row data such as password hashes
 * or sealed secrets): only the first line and the reason on the last line are logged.
 */
export function loggable(error: unknown): unknown {
  if (!(error instanceof Error) || !error.name.startsWith('PrismaClient')) return error;
  const lines = error.message.trim().split('\n').filter((line) => line.trim());
  return {
    type: error.name,
    code: (error as { code?: unknown }).code,
    message: lines.length > 2 ? `${lines[0]} … ${lines.at(-1)}` : lines.join(' '),
    stack: (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at ')).join('\n'),
  };
}

/**
 * The only exception filter: every error leaves as `{success:false, code, message, details?}`.
 * Unexpected errors are logged with an error id and answered 500 with that id and no stack.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: PinoLogger) {
    logger.setContext('GlobalExceptionFilter');
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;

    if (exception instanceof AppError) {
      response.set(exception.headers);
      response.status(exception.status).json(errorBody(exception.code, exception.message, exception.details));
      return;
    }
    const known = this.describeKnown(exception);
    if (known) {
      response.status(ERROR_STATUS[known.code]).json(errorBody(known.code, known.message));
      return;
    }
    const errorId = randomUUID();
    this.logger.error({ err: loggable(exception), error_id: errorId }, 'unhandled error');
    response.status(500).json({ ...errorBody('internal_error', 'Internal error'), error_id: errorId });
  }

  /** Framework and middleware errors with a 4xx status (unknown route, unsupported charset, …). */
  private describeKnown(exception: unknown): { code: ErrorCode; message: string } | null {
    if (exception instanceof HttpException) {
      const code = CODE_BY_STATUS[exception.getStatus()];
      if (!code) return null;
      const message = exception.getStatus() === 404 ? 'Not found' : exception.message;
      return { code, message };
    }
    const middleware = exception as MiddlewareError | null;
    const status = middleware?.status ?? middleware?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500 && middleware?.expose !== false) {
      const code = CODE_BY_STATUS[status];
      if (code) return { code, message: (exception as Error).message };
    }
    return null;
  }
}
