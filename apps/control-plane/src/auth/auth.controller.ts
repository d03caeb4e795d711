import { Body, Controller, Get, HttpCode, Inject, Ip, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ZodResponse } from 'nestjs-zod';
import { done, MessageResponseDto } from '../common/dto/message.dto';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { AuthService, type IssuedSession, type Principal, toUserView } from './auth.service';
import { ChangePasswordDto, LoginDto, MeResponseDto, SessionResponseDto, SignupDto } from './dto/auth.dto';
import { CurrentPrincipal, SESSION_COOKIE, SessionRoute } from './session.guard';

@ApiTags('auth')
@Controller('v1/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  @Post('signup')
  @ApiOperation({
    summary: 'Create an account and log in',
    description:
      'Never reveals whether an email is registered: for an existing email this is a login (its password → 201, ' +
      'another → 401 `invalid_credentials`, throttled like login). Easily guessed passwords → 400 `weak_password`.',
  })
  @ZodResponse({ status: 201, type: SessionResponseDto })
  async signup(@Body() body: SignupDto, @Ip() address: string, @Res({ passthrough: true }) res: Response) {
    return this.withCookie(res, await this.auth.signup(body.email, body.password, address));
  }

  @Post('login')
  @ApiOperation({ summary: 'Log in; 429 with Retry-After after repeated failures' })
  @ZodResponse({ status: 200, type: SessionResponseDto })
  async login(@Body() body: LoginDto, @Ip() address: string, @Res({ passthrough: true }) res: Response) {
    return this.withCookie(res, await this.auth.login(body.email, body.password, address));
  }

  @Get('me')
  @SessionRoute()
  @ZodResponse({ status: 200, type: MeResponseDto })
  me(@CurrentPrincipal() principal: Principal) {
    return { user: toUserView({ id: principal.accountId, email: principal.email, createdAt: principal.createdAt }) };
  }

  @Post('logout')
  @HttpCode(200)
  @SessionRoute()
  @ApiOperation({ summary: 'Revoke the current session' })
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async logout(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response) {
    await this.auth.logout(principal);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    return done('Logged out');
  }

  @Post('password')
  @HttpCode(200)
  @SessionRoute()
  @ApiOperation({
    summary: 'Change the password; ends every other session, keeps this one',
    description:
      'A wrong `current_password` → 400 `invalid_request` naming it (counted like a failed login: 429 with Retry-After ' +
      'after repeated failures); an easily guessed `new_password` → 400 `weak_password`.',
  })
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async changePassword(@CurrentPrincipal() principal: Principal, @Body() body: ChangePasswordDto, @Ip() address: string) {
    await this.auth.changePassword(principal, body.current_password, body.new_password, address);
    return done('Password changed; every other session has ended');
  }

  @Post('logout-all')
  @HttpCode(200)
  @SessionRoute()
  @ApiOperation({ summary: 'Revoke every session of the account, this one included' })
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async logoutAll(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response) {
    await this.auth.logoutEverywhere(principal);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    return done('Signed out everywhere');
  }

  private withCookie(res: Response, session: IssuedSession) {
    res.cookie(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.config.nodeEnv === 'production',
      path: '/',
      expires: session.expiresAt,
    });
    return { user: session.user, token: session.token };
  }
}
