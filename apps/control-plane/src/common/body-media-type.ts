import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError } from './app-error';

const ACCEPTS = Symbol('accepts-body');

/**
 * A route that takes a body other than JSON names its media types (e.g. `@AcceptsBody('text/csv')`
 * on a CSV import); every other route accepts `application/json` only.
 */
export const AcceptsBody = (...mediaTypes: string[]) => SetMetadata(ACCEPTS, mediaTypes);

/**
 * Global guard: a request with a body must send it as JSON (or as a media type its route
 * declares), else 415 `unsupported_media_type`. A page of another site can send a form or
 * plain text without asking the browser's CORS check first; it cannot send JSON that way.
 */
@Injectable()
export class BodyMediaTypeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (!hasBody(req)) return true;
    const accepted = this.reflector.getAllAndOverride<string[] | undefined>(ACCEPTS, [context.getHandler(), context.getClass()]) ?? ['application/json'];
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (accepted.includes(mediaType)) return true;
    throw new AppError('unsupported_media_type', `Send the request body as ${accepted.join(' or ')}${mediaType ? `, not ${mediaType}` : ''}`);
  }
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
