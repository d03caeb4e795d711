import { Inject, Injectable } from '@nestjs/common';
import type { DataColumn } from '@flowgate/contracts';
import { PrismaClient } from '@flowgate/db';
import type { Tx } from '../infrastructure/transaction';

export interface TableRecord {
  id: string;
  projectId: string;
  name: string;
  columns: DataColumn[];
  createdAt: Date;
  updatedAt: Date;
}

/** A live endpoint version's flow (what a table change could break). */
export interface LiveFlow {
  name: string;
  method: string;
  path: string;
  compiled: unknown;
}

const asRecord = (row: { columns: unknown } & Omit<TableRecord, 'columns'>): TableRecord => ({ ...row, columns: row.columns as DataColumn[] });

@Injectable()
export class TablesRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async list(projectId: string): Promise<TableRecord[]> {
    return (await this.prisma.dataTable.findMany({ where: { projectId }, orderBy: { name: 'asc' } })).map(asRecord);
  }

  async find(projectId: string, tableId: string, tx: Tx | PrismaClient = this.prisma): Promise<TableRecord | null> {
    const row = await tx.dataTable.findFirst({ where: { id: tableId, projectId } });
    return row ? asRecord(row) : null;
  }

  count(tx: Tx, projectId: string): Promise<number> {
    return tx.dataTable.count({ where: { projectId } });
  }

  async nameTaken(tx: Tx, projectId: string, name: string, exceptId: string | null = null): Promise<boolean> {
    return (await tx.dataTable.count({ where: { projectId, name, ...(exceptId ? { NOT: { id: exceptId } } : {}) } })) > 0;
  }

  async insert(tx: Tx, data: { id: string; projectId: string; name: string; columns: DataColumn[] }): Promise<TableRecord> {
    return asRecord(await tx.dataTable.create({ data: { ...data, columns: data.columns as object[] } }));
  }

  async update(tx: Tx, tableId: string, data: { name: string; columns: DataColumn[] }): Promise<TableRecord> {
    return asRecord(await tx.dataTable.update({ where: { id: tableId }, data: { name: data.name, columns: data.columns as object[] } }));
  }

  async delete(tx: Tx, tableId: string): Promise<void> {
    await tx.dataTable.delete({ where: { id: tableId } });
  }

  liveFlows(projectId: string, tx: Tx | PrismaClient = this.prisma): Promise<LiveFlow[]> {
    return tx.$queryRaw<LiveFlow[]>`
      SELECT v.name, v.method::text AS method, v.path, v.compiled
      FROM endpoints e JOIN endpoint_versions v ON v.endpoint_id = e.id AND v.version = e.live_version
      WHERE e.project_id = ${projectId}::uuid`;
  }
}
