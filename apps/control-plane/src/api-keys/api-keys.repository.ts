import { Inject, Injectable } from '@nestjs/common';
import { PrismaClient } from '@flowgate/db';
import type { Tx } from '../infrastructure/transaction';

export interface ApiKeyRecord {
  id: string;
  projectId: string;
  name: string;
  keyHash: string;
  displayPrefix: string;
  ratelimitMin: number;
  permission: 'user' | 'admin';
  createdAt: Date;
  lastUsedAt: Date | null;
}

@Injectable()
export class ApiKeysRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  list(projectId: string): Promise<ApiKeyRecord[]> {
    return this.prisma.apiKey.findMany({ where: { projectId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
  }

  insert(
    tx: Tx,
    data: { projectId: string; name: string; keyHash: string; displayPrefix: string; ratelimitMin: number; permission: 'user' | 'admin' },
  ): Promise<ApiKeyRecord> {
    return tx.apiKey.create({ data });
  }

  /** Deletes the key if it belongs to the project; returns what was deleted. */
  async delete(tx: Tx, projectId: string, keyId: string): Promise<ApiKeyRecord | null> {
    const key = await tx.apiKey.findFirst({ where: { id: keyId, projectId } });
    if (!key) return null;
    await tx.apiKey.delete({ where: { id: key.id } });
    return key;
  }
}
