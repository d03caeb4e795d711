import { Inject, Injectable } from '@nestjs/common';
import { Prisma, PrismaClient } from '@flowgate/db';
import { conflict } from '../common/app-error';
import { isUniqueViolation } from '../infrastructure/prisma-errors';
import type { Tx } from '../infrastructure/transaction';

export interface ScheduleContent {
  name: string;
  cron: string;
  timezone: string;
  flow: unknown;
}

export interface ScheduleRecord extends ScheduleContent {
  id: string;
  projectId: string;
  enabled: boolean;
  liveVersion: number | null;
  draftChangedAt: Date | null;
  lastRunAt: Date | null;
  lastRunStatus: string | null;
  lastRunMs: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ScheduleVersionRecord extends ScheduleContent {
  scheduleId: string;
  version: number;
  createdAt: Date;
}

const contentData = (content: ScheduleContent) => ({ name: content.name, cron: content.cron, timezone: content.timezone, flow: content.flow as Prisma.InputJsonValue });
const VERSION_FIELDS = { scheduleId: true, version: true, name: true, cron: true, timezone: true, flow: true, createdAt: true } as const;

async function mapNameTaken<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('name', 'another schedule of this project has this name');
    throw error;
  }
}

@Injectable()
export class SchedulesRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  list(projectId: string): Promise<ScheduleRecord[]> {
    return this.prisma.schedule.findMany({ where: { projectId }, orderBy: { name: 'asc' } });
  }

  find(projectId: string, scheduleId: string, db: Tx | PrismaClient = this.prisma): Promise<ScheduleRecord | null> {
    return db.schedule.findFirst({ where: { id: scheduleId, projectId } });
  }

  count(projectId: string, db: Tx | PrismaClient = this.prisma): Promise<number> {
    return db.schedule.count({ where: { projectId } });
  }

  create(tx: Tx, projectId: string, content: ScheduleContent, enabled: boolean, draftChangedAt: Date): Promise<ScheduleRecord> {
    return mapNameTaken(tx.schedule.create({ data: { projectId, ...contentData(content), enabled, draftChangedAt } }));
  }

  saveDraft(tx: Tx, scheduleId: string, content: ScheduleContent, enabled: boolean, draftChangedAt: Date | null): Promise<ScheduleRecord> {
    return mapNameTaken(tx.schedule.update({ where: { id: scheduleId }, data: { ...contentData(content), enabled, draftChangedAt } }));
  }

  setLive(tx: Tx, scheduleId: string, liveVersion: number | null, draftChangedAt: Date | null): Promise<ScheduleRecord> {
    return tx.schedule.update({ where: { id: scheduleId }, data: { liveVersion, draftChangedAt } });
  }

  async delete(tx: Tx, scheduleId: string): Promise<void> {
    await tx.schedule.delete({ where: { id: scheduleId } });
  }

  listVersions(scheduleId: string): Promise<ScheduleVersionRecord[]> {
    return this.prisma.scheduleVersion.findMany({ where: { scheduleId }, orderBy: { version: 'desc' }, select: VERSION_FIELDS });
  }

  findVersion(scheduleId: string, version: number, db: Tx | PrismaClient = this.prisma): Promise<ScheduleVersionRecord | null> {
    return db.scheduleVersion.findUnique({ where: { scheduleId_version: { scheduleId, version } }, select: VERSION_FIELDS });
  }

  async createVersion(tx: Tx, scheduleId: string, content: ScheduleContent, compiled: unknown): Promise<number> {
    const latest = await tx.scheduleVersion.aggregate({ where: { scheduleId }, _max: { version: true } });
    const version = (latest._max.version ?? 0) + 1;
    await tx.scheduleVersion.create({ data: { scheduleId, version, ...contentData(content), compiled: compiled as Prisma.InputJsonValue } });
    return version;
  }
}
