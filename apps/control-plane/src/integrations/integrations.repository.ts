import { Inject, Injectable } from '@nestjs/common';
import { PrismaClient } from '@flowgate/db';
import type { Tx } from '../infrastructure/transaction';

export type IntegrationKind = 'text_generation' | 'email';

export interface IntegrationRecord {
  kind: IntegrationKind;
  provider: string;
  secretEncrypted: string;
  secretLast4: string;
  settings: unknown;
  createdAt: Date;
  updatedAt: Date;
}

@Injectable()
export class IntegrationsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  list(projectId: string): Promise<IntegrationRecord[]> {
    return this.prisma.integration.findMany({ where: { projectId }, orderBy: { kind: 'asc' } });
  }

  find(projectId: string, kind: IntegrationKind, db: Tx | PrismaClient = this.prisma): Promise<IntegrationRecord | null> {
    return db.integration.findUnique({ where: { projectId_kind: { projectId, kind } } });
  }

  upsert(
    tx: Tx,
    projectId: string,
    kind: IntegrationKind,
    data: { provider: string; secretEncrypted: string; secretLast4: string; settings: Record<string, string | string[] | null> },
  ): Promise<IntegrationRecord> {
    return tx.integration.upsert({
      where: { projectId_kind: { projectId, kind } },
      create: { projectId, kind, ...data },
      update: data,
    });
  }

  async delete(tx: Tx, projectId: string, kind: IntegrationKind): Promise<boolean> {
    const { count } = await tx.integration.deleteMany({ where: { projectId, kind } });
    return count > 0;
  }
}
