import { JSON_TOO_DEEP_MESSAGE } from '@flowgate/contracts';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';
import { JsonTooDeepError } from './json-depth-limit';

/**
 * Express error middleware placed right after the body parsers: turns their failures into
 * AppErrors, so the global filter answers them like every other error.
 */
export function bodyParserErrors(error: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (error instanceof JsonTooDeepError) return next(new AppError('invalid_json', JSON_TOO_DEEP_MESSAGE));
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return next(new AppError('invalid_json', 'The request body is not valid JSON'));
  if (type === 'entity.too.large') return next(new AppError('payload_too_large', 'The request body is too large'));
  next(error);
}
