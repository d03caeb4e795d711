import type { IncomingMessage, RequestListener } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../common/app-error';

/**
 * The internal API (`/internal/…`, service token) is served by a second HTTP listener of the
 * same application, bound to CONTROL_PLANE_INTERNAL_HOST (127.0.0.1 by default): a leaked
 * service token is then of no use from outside the machine or its private network. Requests
 * that arrive through that listener carry a mark; the public listener never serves
 * `/internal`, the internal one serves nothing else.
 */
const VIA_INTERNAL_LISTENER = Symbol('flowgate.viaInternalListener');

type Marked = IncomingMessage & { [VIA_INTERNAL_LISTENER]?: true };

export const arrivedOnInternalListener = (req: IncomingMessage): boolean => (req as Marked)[VIA_INTERNAL_LISTENER] === true;

/** The request handler of the internal listener: the application's own, with the mark set. */
export function internalRequestListener(app: NestExpressApplication): RequestListener {
  const handle = app.getHttpAdapter().getInstance() as RequestListener;
  return (req, res) => {
    (req as Marked)[VIA_INTERNAL_LISTENER] = true;
    handle(req, res);
  };
}

/** Express routes case-insensitively, so `/INTERNAL/…` would reach the internal routes too. */
const INTERNAL_PREFIX = /^\/internal(?:\/|$)/i;

/**
 * First middleware: each listener answers only its own routes (404 like any unknown route),
 * before a body is read. The ServiceTokenGuard checks the mark again on the routes themselves.
 */
export function separateListeners(req: Request, _res: Response, next: NextFunction): void {
  if (INTERNAL_PREFIX.test(req.path) !== arrivedOnInternalListener(req)) return next(new AppError('not_found', 'Not found'));
  next();
}
