import { Inject, Injectable } from '@nestjs/common';
import { Prisma, PrismaClient } from '@flowgate/db';
import { conflict } from '../common/app-error';
import { isUniqueViolation } from '../infrastructure/prisma-errors';
import type { Tx } from '../infrastructure/transaction';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Auth = 'none' | 'user' | 'admin';

export interface EndpointContent {
  name: string;
  method: Method;
  path: string;
  auth: Auth;
  queryParams: unknown;
  flow: unknown;
  /** `{body_schema?, signature?, cache?}` (endpoint-options.ts). */
  options: unknown;
}

export interface EndpointRecord extends EndpointContent {
  id: string;
  projectId: string;
  liveVersion: number | null;
  draftChangedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface VersionRecord extends EndpointContent {
  endpointId: string;
  version: number;
  createdAt: Date;
}

const json = (value: unknown) => value as Prisma.InputJsonValue;

/** Exactly the content columns (callers may pass a whole endpoint or version record). */
const contentData = (content: EndpointContent) => ({
  name: content.name,
  method: content.method,
  path: content.path,
  auth: content.auth,
  queryParams: json(content.queryParams),
  flow: json(content.flow),
  options: json(content.options),
});

async function mapRouteTaken<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('path', 'another endpoint of this project has the same method and path');
    throw error;
  }
}

const VERSION_FIELDS = {
  endpointId: true,
  version: true,
  name: true,
  method: true,
  path: true,
  auth: true,
  queryParams: true,
  flow: true,
  options: true,
  createdAt: true,
} as const;

@Injectable()
export class EndpointsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  list(projectId: string): Promise<EndpointRecord[]> {
    return this.prisma.endpoint.findMany({ where: { projectId }, orderBy: [{ path: 'asc' }, { method: 'asc' }] });
  }

  find(projectId: string, endpointId: string, db: Tx | PrismaClient = this.prisma): Promise<EndpointRecord | null> {
    return db.endpoint.findFirst({ where: { id: endpointId, projectId } });
  }

  count(projectId: string, db: Tx | PrismaClient = this.prisma): Promise<number> {
    return db.endpoint.count({ where: { projectId } });
  }

  create(projectId: string, content: EndpointContent, draftChangedAt: Date, db: Tx | PrismaClient = this.prisma): Promise<EndpointRecord> {
    return mapRouteTaken(
      db.endpoint.create({
        data: { projectId, ...contentData(content), draftChangedAt },
      }),
    );
  }

  saveDraft(endpointId: string, content: EndpointContent, draftChangedAt: Date | null, db: Tx | PrismaClient = this.prisma): Promise<EndpointRecord> {
    return mapRouteTaken(
      db.endpoint.update({
        where: { id: endpointId },
        data: { ...contentData(content), draftChangedAt },
      }),
    );
  }

  setLive(tx: Tx, endpointId: string, liveVersion: number | null, draftChangedAt: Date | null): Promise<EndpointRecord> {
    return tx.endpoint.update({ where: { id: endpointId }, data: { liveVersion, draftChangedAt } });
  }

  async delete(tx: Tx, endpointId: string): Promise<void> {
    await tx.endpoint.delete({ where: { id: endpointId } });
  }

  listVersions(endpointId: string): Promise<VersionRecord[]> {
    return this.prisma.endpointVersion.findMany({ where: { endpointId }, orderBy: { version: 'desc' }, select: VERSION_FIELDS });
  }

  findVersion(endpointId: string, version: number, db: Tx | PrismaClient = this.prisma): Promise<VersionRecord | null> {
    return db.endpointVersion.findUnique({ where: { endpointId_version: { endpointId, version } }, select: VERSION_FIELDS });
  }

  /** Paths of the live versions of these endpoints (a draft may have moved elsewhere). */
  async livePaths(endpoints: Array<Pick<EndpointRecord, 'id' | 'liveVersion'>>): Promise<Map<string, string>> {
    const live = endpoints.filter((endpoint) => endpoint.liveVersion !== null);
    if (live.length === 0) return new Map();
    const rows = await this.prisma.endpointVersion.findMany({
      where: { OR: live.map((endpoint) => ({ endpointId: endpoint.id, version: endpoint.liveVersion! })) },
      select: { endpointId: true, path: true },
    });
    return new Map(rows.map((row) => [row.endpointId, row.path]));
  }

  async createVersion(tx: Tx, endpointId: string, content: EndpointContent, compiled: unknown): Promise<number> {
    const latest = await tx.endpointVersion.aggregate({ where: { endpointId }, _max: { version: true } });
    const version = (latest._max.version ?? 0) + 1;
    await tx.endpointVersion.create({
      data: { endpointId, version, ...contentData(content), compiled: json(compiled) },
    });
    return version;
  }

  /** Bytes of the live versions' settings and flows (as stored JSON text), all endpoints but one. */
  async liveBytesExcept(tx: Tx, projectId: string, endpointId: string): Promise<number> {
    const [row] = await tx.$queryRaw<Array<{ bytes: bigint | null }>>`
      SELECT SUM(octet_length(v.flow::text) + octet_length(v.query_params::text) + octet_length(v.name) + octet_length(v.path)) AS bytes
      FROM endpoints e
      JOIN endpoint_versions v ON v.endpoint_id = e.id AND v.version = e.live_version
      WHERE e.project_id = ${projectId}::uuid AND e.id <> ${endpointId}::uuid`;
    return Number(row?.bytes ?? 0);
  }

  /** Another endpoint of the project whose live version already serves this method and path. */
  async liveRouteTaken(tx: Tx, projectId: string, endpointId: string, method: Method, path: string): Promise<boolean> {
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT e.id FROM endpoints e
      JOIN endpoint_versions v ON v.endpoint_id = e.id AND v.version = e.live_version
      WHERE e.project_id = ${projectId}::uuid AND e.id <> ${endpointId}::uuid
        AND v.method = ${method}::http_method AND v.path = ${path}
      LIMIT 1`;
    return rows.length > 0;
  }
}
