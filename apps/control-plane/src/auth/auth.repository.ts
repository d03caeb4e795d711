import { Inject, Injectable } from '@nestjs/common';
import { PrismaClient } from '@flowgate/db';
import { isUniqueViolation } from '../infrastructure/prisma-errors';

export interface AccountRecord {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
}

@Injectable()
export class AuthRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** The new account, or null when the email is taken (also by a sign-up that won a race). */
  async createAccount(email: string, passwordHash: string): Promise<AccountRecord | null> {
    try {
      return await this.prisma.account.create({ data: { email, passwordHash } });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  findAccountById(id: string): Promise<AccountRecord | null> {
    return this.prisma.account.findUnique({ where: { id } });
  }

  findAccountByEmail(email: string): Promise<AccountRecord | null> {
    return this.prisma.account.findUnique({ where: { email } });
  }

  async createSession(accountId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.prisma.session.create({ data: { accountId, tokenHash, expiresAt } });
  }

  /** The account of a live session (not revoked, not expired). */
  async findLiveSession(tokenHash: string, now: Date): Promise<{ sessionId: string; account: AccountRecord } | null> {
    const session = await this.prisma.session.findFirst({
      where: { tokenHash, revokedAt: null, expiresAt: { gt: now } },
      include: { account: true },
    });
    return session ? { sessionId: session.id, account: session.account } : null;
  }

  async revokeSession(sessionId: string, now: Date): Promise<void> {
    await this.prisma.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
  }

  /** A new password hash, and every session of the account but `keepSessionId` revoked, in one transaction. */
  async replacePassword(accountId: string, passwordHash: string, keepSessionId: string, now: Date): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.account.update({ where: { id: accountId }, data: { passwordHash } }),
      this.prisma.session.updateMany({ where: { accountId, revokedAt: null, id: { not: keepSessionId } }, data: { revokedAt: now } }),
    ]);
  }

  /** Every live session of the account revoked (sign out everywhere). */
  async revokeAccountSessions(accountId: string, now: Date): Promise<void> {
    await this.prisma.session.updateMany({ where: { accountId, revokedAt: null }, data: { revokedAt: now } });
  }

  /** Housekeeping at login: an account's expired or revoked sessions are of no further use. */
  async deleteDeadSessions(accountId: string, now: Date): Promise<void> {
    await this.prisma.session.deleteMany({
      where: { accountId, OR: [{ expiresAt: { lte: now } }, { revokedAt: { not: null } }] },
    });
  }
}
