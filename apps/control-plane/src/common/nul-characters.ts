import type { ErrorDetail } from '@flowgate/contracts';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain a NUL character (\\u0000)';

/** Where in a parsed JSON value (or query object) the first NUL sits: `flow.nodes.0.id`, or null. */
export function nulPath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes(NUL)) return [...path, key.replaceAll(NUL, '\\u0000')];
    const found = nulPath(child, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * Refuses a NUL character anywhere in the path, the query or the JSON body with 400
 * `invalid_request` naming the field. PostgreSQL stores no NUL in text or jsonb, so without this
 * check a name, a flow or a login email with `\u0000` reached the database and answered 500.
 * Runs after the body parsers, before any route.
 */
export function refuseNulCharacters(req: Request, _res: Response, next: NextFunction): void {
  const details: ErrorDetail[] = [];
  const [pathname] = (req.originalUrl ?? req.url).split('?');
  if (/%00/i.test(pathname!)) details.push({ path: 'url', message: NUL_MESSAGE });
  const inQuery = nulPath(req.query);
  if (inQuery) details.push({ path: inQuery.join('.'), message: NUL_MESSAGE });
  const inBody = nulPath(req.body);
  if (inBody) details.push({ path: inBody.join('.'), message: NUL_MESSAGE });
  if (details.length === 0) return next();
  next(new AppError('invalid_request', 'The request contains a NUL character (\\u0000), which Flowgate cannot store', details));
}
