import { Inject, Injectable } from '@nestjs/common';
import { Prisma, PrismaClient } from '@flowgate/db';
import { conflict } from '../common/app-error';
import { isUniqueViolation } from '../infrastructure/prisma-errors';
import type { Tx } from '../infrastructure/transaction';

export interface FunctionContent {
  name: string;
  description: string;
  inputs: unknown;
  flow: unknown;
}

export interface FunctionRecord extends FunctionContent {
  id: string;
  projectId: string;
  liveVersion: number | null;
  draftChangedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface FunctionVersionRecord extends FunctionContent {
  functionId: string;
  version: number;
  createdAt: Date;
}

const json = (value: unknown) => value as Prisma.InputJsonValue;
const contentData = (content: FunctionContent) => ({ name: content.name, description: content.description, inputs: json(content.inputs), flow: json(content.flow) });
const VERSION_FIELDS = { functionId: true, version: true, name: true, description: true, inputs: true, flow: true, createdAt: true } as const;

async function mapNameTaken<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('name', 'another function of this project has this name');
    throw error;
  }
}

@Injectable()
export class FunctionsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  list(projectId: string): Promise<FunctionRecord[]> {
    return this.prisma.flowFunction.findMany({ where: { projectId }, orderBy: { name: 'asc' } });
  }

  find(projectId: string, functionId: string, db: Tx | PrismaClient = this.prisma): Promise<FunctionRecord | null> {
    return db.flowFunction.findFirst({ where: { id: functionId, projectId } });
  }

  count(projectId: string, db: Tx | PrismaClient = this.prisma): Promise<number> {
    return db.flowFunction.count({ where: { projectId } });
  }

  create(tx: Tx, projectId: string, content: FunctionContent, draftChangedAt: Date): Promise<FunctionRecord> {
    return mapNameTaken(tx.flowFunction.create({ data: { projectId, ...contentData(content), draftChangedAt } }));
  }

  saveDraft(tx: Tx, functionId: string, content: FunctionContent, draftChangedAt: Date | null): Promise<FunctionRecord> {
    return mapNameTaken(tx.flowFunction.update({ where: { id: functionId }, data: { ...contentData(content), draftChangedAt } }));
  }

  setLive(tx: Tx, functionId: string, liveVersion: number | null, draftChangedAt: Date | null): Promise<FunctionRecord> {
    return tx.flowFunction.update({ where: { id: functionId }, data: { liveVersion, draftChangedAt } });
  }

  async delete(tx: Tx, functionId: string): Promise<void> {
    await tx.flowFunction.delete({ where: { id: functionId } });
  }

  listVersions(functionId: string): Promise<FunctionVersionRecord[]> {
    return this.prisma.functionVersion.findMany({ where: { functionId }, orderBy: { version: 'desc' }, select: VERSION_FIELDS });
  }

  findVersion(functionId: string, version: number, db: Tx | PrismaClient = this.prisma): Promise<FunctionVersionRecord | null> {
    return db.functionVersion.findUnique({ where: { functionId_version: { functionId, version } }, select: VERSION_FIELDS });
  }

  async createVersion(tx: Tx, functionId: string, content: FunctionContent, compiled: unknown): Promise<number> {
    const latest = await tx.functionVersion.aggregate({ where: { functionId }, _max: { version: true } });
    const version = (latest._max.version ?? 0) + 1;
    await tx.functionVersion.create({ data: { functionId, version, ...contentData(content), compiled: json(compiled) } });
    return version;
  }
}
