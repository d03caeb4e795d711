import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sha256Hex } from '@flowgate/platform';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { Clock } from '../infrastructure/clock';
import { RateWindows } from '../infrastructure/rate-windows';
import { type AccountRecord, AuthRepository } from './auth.repository';
import type { UserView } from './dto/auth.dto';
import { type LoginAttempt, LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { PasswordStrength } from './password-strength';

/** Who is calling, as resolved from a session token. */
export interface Principal {
  accountId: string;
  email: string;
  createdAt: Date;
  sessionId: string;
}

export interface IssuedSession {
  user: UserView;
  token: string;
  expiresAt: Date;
}

const TOKEN_PREFIX = 'fgs_';

export const toUserView = (account: Pick<AccountRecord, 'id' | 'email' | 'createdAt'>): UserView => ({
  id: account.id,
  email: account.email,
  created_at: account.createdAt.toISOString(),
});

@Injectable()
export class AuthService {
  constructor(
    private readonly accounts: AuthRepository,
    private readonly hasher: PasswordHasher,
    private readonly strength: PasswordStrength,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
    private readonly rates: RateWindows,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  /**
   * Never says that an email is taken (no 409): a new email gets its account; an existing one
   * is a login — its own password logs in, any other gets login's 401 and counts as a failed
   * attempt, so probing emails through sign-up is throttled exactly like guessing passwords
   * (docs/control-plane.md, "Sign-up and account enumeration").
   */
  async signup(email: string, password: string, address: string): Promise<IssuedSession> {
    // Per client address, before any work: each sign-up costs a password hash, and every new
    // account brings its own per-account limits (SIGNUP_PER_ADDRESS_PER_HOUR). Without Redis a
    // new account can still sign up, as before the limit existed.
    const max = this.config.signupsPerAddressPerHour;
    const what = `At most ${max} sign-ups per hour from one address`;
    await this.rates.take({ key: `fg:cp:signups:${address}`, max, windowMs: 3_600_000, what, whenUncounted: 'allow' });
    await this.strength.assertStrong(password, email);
    const created = (await this.accounts.findAccountByEmail(email)) ? null : await this.accounts.createAccount(email, await this.hasher.hash(password));
    return created ? this.issueSession(created) : this.login(email, password, address);
  }

  /** Unknown account and wrong password get the same answer, after the same amount of work. */
  async login(email: string, password: string, address: string): Promise<IssuedSession> {
    // Counted before the check: concurrent guesses cannot outrun the limit.
    return this.checkPassword(await this.throttle.reserve(email, address), password);
  }

  private async checkPassword(attempt: LoginAttempt, password: string): Promise<IssuedSession> {
    const account = await this.accounts.findAccountByEmail(attempt.email);
    const valid = account
      ? await this.hasher.verify(password, account.passwordHash)
      : await this.hasher.verifyAgainstDummy(password);
    if (!account || !valid) throw new AppError('invalid_credentials', 'Invalid email or password');
    await this.throttle.succeeded(attempt);
    await this.accounts.deleteDeadSessions(account.id, this.clock.now());
    return this.issueSession(account);
  }

  async authenticate(token: string): Promise<Principal | null> {
    if (!token.startsWith(TOKEN_PREFIX)) return null;
    const found = await this.accounts.findLiveSession(sha256Hex(token), this.clock.now());
    if (!found) return null;
    return { accountId: found.account.id, email: found.account.email, createdAt: found.account.createdAt, sessionId: found.sessionId };
  }

  async logout(principal: Principal): Promise<void> {
    await this.accounts.revokeSession(principal.sessionId, this.clock.now());
  }

  /**
   * Replaces the password of the caller's account and ends every other session (a thief holding
   * one is out), keeping the caller's. The current password is checked and throttled like a
   * login, so a stolen session cannot be used to guess it; a wrong one is a 400 naming
   * `current_password` (a 401 would read as "your session ended").
   */
  async changePassword(principal: Principal, currentPassword: string, newPassword: string, address: string): Promise<void> {
    const attempt = await this.throttle.reserve(principal.email, address);
    const account = await this.accounts.findAccountById(principal.accountId);
    if (!account || !(await this.hasher.verify(currentPassword, account.passwordHash))) {
      throw new AppError('invalid_request', 'The current password is not right', [{ path: 'current_password', message: 'is not your current password' }]);
    }
    await this.throttle.succeeded(attempt);
    await this.strength.assertStrong(newPassword, account.email, 'new_password');
    await this.accounts.replacePassword(account.id, await this.hasher.hash(newPassword), principal.sessionId, this.clock.now());
  }

  /** Ends every session of the caller's account, this one included. */
  async logoutEverywhere(principal: Principal): Promise<void> {
    await this.accounts.revokeAccountSessions(principal.accountId, this.clock.now());
  }

  private async issueSession(account: AccountRecord): Promise<IssuedSession> {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + this.config.sessionTtlHours * 3600_000);
    await this.accounts.createSession(account.id, sha256Hex(token), expiresAt);
    return { user: toUserView(account), token, expiresAt };
  }
}
