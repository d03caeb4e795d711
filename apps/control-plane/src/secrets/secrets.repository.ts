import { Inject, Injectable } from '@nestjs/common';
import { PrismaClient } from '@flowgate/db';
import { secretsReadBy } from '@flowgate/flow-engine';
import type { Tx } from '../infrastructure/transaction';

export interface SecretRecord {
  id: string;
  name: string;
  description: string | null;
  valueEncrypted: string;
  previewValueEncrypted: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A live endpoint and the secrets its live version reads. */
export interface SecretReader {
  endpointId: string;
  name: string;
  secrets: string[];
}

@Injectable()
export class SecretsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  list(projectId: string, db: Tx | PrismaClient = this.prisma): Promise<SecretRecord[]> {
    return db.secret.findMany({ where: { projectId }, orderBy: { name: 'asc' } });
  }

  async names(projectId: string): Promise<string[]> {
    const rows = await this.prisma.secret.findMany({ where: { projectId }, select: { name: true }, orderBy: { name: 'asc' } });
    return rows.map((row) => row.name);
  }

  find(tx: Tx, projectId: string, name: string): Promise<SecretRecord | null> {
    return tx.secret.findUnique({ where: { projectId_name: { projectId, name } } });
  }

  count(tx: Tx, projectId: string): Promise<number> {
    return tx.secret.count({ where: { projectId } });
  }

  create(tx: Tx, projectId: string, data: Pick<SecretRecord, 'name' | 'description' | 'valueEncrypted' | 'previewValueEncrypted'>): Promise<SecretRecord> {
    return tx.secret.create({ data: { projectId, ...data } });
  }

  update(tx: Tx, id: string, data: Pick<SecretRecord, 'description' | 'valueEncrypted' | 'previewValueEncrypted'>): Promise<SecretRecord> {
    return tx.secret.update({ where: { id }, data });
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.secret.delete({ where: { id } });
  }

  /** Live endpoints that read at least one secret, from their live versions' compiled flows. */
  async liveReaders(projectId: string, db: Tx | PrismaClient = this.prisma): Promise<SecretReader[]> {
    const rows = await db.$queryRaw<Array<{ endpointId: string; name: string; compiled: unknown }>>`
      SELECT e.id AS "endpointId", e.name, v.compiled
        FROM endpoints e JOIN endpoint_versions v ON v.endpoint_id = e.id AND v.version = e.live_version
       WHERE e.project_id = ${projectId}::uuid
       ORDER BY e.name, e.id`;
    return rows
      .map((row) => ({ endpointId: row.endpointId, name: row.name, secrets: secretsReadBy(row.compiled) }))
      .filter((reader) => reader.secrets.length > 0);
  }
}
