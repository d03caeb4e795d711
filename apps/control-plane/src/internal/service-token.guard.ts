import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { sha256Hex } from '@flowgate/platform';
import type { Request } from 'express';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { arrivedOnInternalListener } from './internal-listener';

/**
 * Internal routes: only through the internal listener (elsewhere they do not exist: 404), and
 * with `Authorization: Bearer <FLOWGATE_SERVICE_TOKEN>`, compared in constant time.
 */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(CONFIG) config: ControlPlaneConfig) {
    this.expected = Buffer.from(sha256Hex(config.serviceToken), 'hex');
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!arrivedOnInternalListener(request)) throw new AppError('not_found', 'Not found');
    const header = request.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!token || !timingSafeEqual(Buffer.from(sha256Hex(token), 'hex'), this.expected))
      throw new AppError('unauthorized', 'A valid service token is required');
    return true;
  }
}
