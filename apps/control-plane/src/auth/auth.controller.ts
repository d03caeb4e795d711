import { Body, Controller, Get, HttpCode, Inject, Ip, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ZodResponse } from 'nestjs-zod';
import { done, MessageResponseDto } from '../common/dto/message.dto';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { AuthService, type IssuedSession, type Principal, toUserView } from './auth.service';
import { LoginDto, MeResponseDto, SessionResponseDto, SignupDto } from './dto/auth.dto';
import { CurrentPrincipal, SESSION_COOKIE, SessionGuard } from './session.guard';

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
  @UseGuards(SessionGuard)
  @ApiBearerAuth()
  @ApiCookieAuth(SESSION_COOKIE)
  @ZodResponse({ status: 200, type: MeResponseDto })
  me(@CurrentPrincipal() principal: Principal) {
    return { user: toUserView({ id: principal.accountId, email: principal.email, createdAt: principal.createdAt }) };
  }

  @Post('logout')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @ApiBearerAuth()
  @ApiCookieAuth(SESSION_COOKIE)
  @ApiOperation({ summary: 'Revoke the current session' })
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async logout(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response) {
    await this.auth.logout(principal);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    return done('Logged out');
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
