import { type CanActivate, type ExecutionContext, Injectable, UseGuards, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AppError } from '../common/app-error';
import { AuthService, type Principal } from './auth.service';

export const SESSION_COOKIE = 'fg_session';

type AuthenticatedRequest = Request & { principal?: Principal };

function tokenOf(req: Request): string | null {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return match ? match[1]! : null;
  }
  const cookie = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  return typeof cookie === 'string' && cookie ? cookie : null;
}

/** Dashboard routes: a live session token as `Authorization: Bearer` or the HttpOnly cookie, else 401. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly auth: AuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = tokenOf(req);
    const principal = token ? await this.auth.authenticate(token) : null;
    if (!principal) throw new AppError('unauthorized', 'Authentication required: log in and send the session token');
    req.principal = principal;
    return true;
  }
}

/** The caller of a route behind SessionGuard. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without SessionGuard');
  return principal;
});

/** A dashboard controller: session required, documented as Bearer or cookie authentication. */
export const DashboardApi = (tag: string) =>
  applyDecorators(ApiTags(tag), ApiBearerAuth(), ApiCookieAuth(SESSION_COOKIE), UseGuards(SessionGuard));

/** One route of a controller that is otherwise open (the auth routes): session required, documented as Bearer or cookie. */
export const SessionRoute = () => applyDecorators(UseGuards(SessionGuard), ApiBearerAuth(), ApiCookieAuth(SESSION_COOKIE));
