import { Inject, Injectable } from '@nestjs/common';
import { PrismaClient } from '@flowgate/db';
import { conflict } from '../common/app-error';
import { isUniqueViolation } from '../infrastructure/prisma-errors';
import type { Tx } from '../infrastructure/transaction';

export interface ProjectRecord {
  id: string;
  accountId: string;
  name: string;
  subdomain: string;
  requireAuth: boolean;
  createdAt: Date;
  updatedAt: Date;
}

async function mapSubdomainTaken<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('subdomain', 'is already taken');
    throw error;
  }
}

@Injectable()
export class ProjectsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  listByAccount(accountId: string): Promise<ProjectRecord[]> {
    return this.prisma.project.findMany({ where: { accountId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  findOwned(accountId: string, projectId: string, db: Tx | PrismaClient = this.prisma): Promise<ProjectRecord | null> {
    return db.project.findFirst({ where: { id: projectId, accountId } });
  }

  async subdomainExists(subdomain: string): Promise<boolean> {
    return (await this.prisma.project.count({ where: { subdomain } })) > 0;
  }

  findById(projectId: string): Promise<ProjectRecord | null> {
    return this.prisma.project.findUnique({ where: { id: projectId } });
  }

  create(tx: Tx, data: { accountId: string; name: string; subdomain: string }): Promise<ProjectRecord> {
    return mapSubdomainTaken(tx.project.create({ data }));
  }

  update(
    projectId: string,
    data: { name?: string; subdomain?: string; requireAuth?: boolean },
    db: Tx | PrismaClient = this.prisma,
  ): Promise<ProjectRecord> {
    return mapSubdomainTaken(db.project.update({ where: { id: projectId }, data }));
  }

  async delete(tx: Tx, projectId: string): Promise<void> {
    await tx.project.delete({ where: { id: projectId } });
  }
}
