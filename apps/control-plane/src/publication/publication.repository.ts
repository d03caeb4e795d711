import { Inject, Injectable } from '@nestjs/common';
import { PrismaClient } from '@flowgate/db';
import type { Tx } from '../infrastructure/transaction';
import { type DraftRow, type FunctionDraftRow, previewFunctionsOf, previewRoutesOf } from './preview-routes';
import type { ProjectServingState } from './published-project.builder';

export interface PublishedRevision {
  id: string;
  subdomain: string;
  revision: number;
}

export interface LockedProject {
  id: string;
  accountId: string;
  subdomain: string;
}

/** PostgreSQL side of the publication: the per-project lock and the serving state read under it. */
@Injectable()
export class PublicationRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /**
   * Takes the project's transaction-scoped advisory lock. Every write to a project's serving
   * state (and every republication of it) holds this lock from its PostgreSQL change through its
   * Redis write, so Redis receives a project's states in commit order, whichever instance writes.
   */
  async lock(tx: Tx, projectId: string): Promise<LockedProject | null> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${projectId}, 0))`;
    return tx.project.findUnique({ where: { id: projectId }, select: { id: true, accountId: true, subdomain: true } });
  }

  async bumpRevision(tx: Tx, projectId: string): Promise<void> {
    // Raw SQL so the project's updated_at (a user-facing field) is not touched by serving changes.
    await tx.$executeRaw`UPDATE projects SET revision = revision + 1 WHERE id = ${projectId}::uuid`;
  }

  /**
   * One query per relation, in sequence: Prisma would run nested relation reads of one
   * findUnique concurrently on the transaction's single connection, which node-postgres deprecates.
   */
  async loadServingState(tx: Tx, projectId: string): Promise<ProjectServingState | null> {
    const project = await tx.project.findUnique({
      where: { id: projectId },
      select: { id: true, name: true, subdomain: true, requireAuth: true, revision: true },
    });
    if (!project) return null;
    const integrations = await tx.integration.findMany({
      where: { projectId },
      select: { kind: true, provider: true, secretEncrypted: true, settings: true },
    });
    const keys = await tx.apiKey.findMany({
      where: { projectId },
      select: { id: true, keyHash: true, permission: true, ratelimitMin: true },
    });
    const routes = await tx.$queryRaw<ProjectServingState['routes']>`
      SELECT v.endpoint_id AS "endpointId", v.name, v.method::text AS method, v.path, v.auth::text AS auth,
             v.query_params AS "queryParams", v.options, v.version, v.compiled
      FROM endpoints e JOIN endpoint_versions v ON v.endpoint_id = e.id AND v.version = e.live_version
      WHERE e.project_id = ${projectId}::uuid`;
    const tables = await tx.dataTable.findMany({ where: { projectId }, select: { id: true, name: true, columns: true }, orderBy: { name: 'asc' } });
    const secrets = await tx.secret.findMany({
      where: { projectId },
      select: { id: true, name: true, valueEncrypted: true, previewValueEncrypted: true },
      orderBy: { name: 'asc' },
    });
    const drafts = await tx.$queryRaw<DraftRow[]>`
      SELECT id AS "endpointId", name, method::text AS method, path, auth::text AS auth, query_params AS "queryParams", options, flow
        FROM endpoints WHERE project_id = ${projectId}::uuid`;
    const functions = await tx.$queryRaw<ProjectServingState['functions']>`
      SELECT v.function_id AS "functionId", v.name, v.version, v.compiled
      FROM functions f JOIN function_versions v ON v.function_id = f.id AND v.version = f.live_version
      WHERE f.project_id = ${projectId}::uuid`;
    const functionDrafts = await tx.$queryRaw<FunctionDraftRow[]>`
      SELECT id AS "functionId", name, inputs, flow FROM functions WHERE project_id = ${projectId}::uuid`;
    const schedules = await tx.$queryRaw<ProjectServingState['schedules']>`
      SELECT v.schedule_id AS "scheduleId", v.name, v.version, v.compiled
      FROM schedules s JOIN schedule_versions v ON v.schedule_id = s.id AND v.version = s.live_version
      WHERE s.project_id = ${projectId}::uuid`;
    const served = { integrations, secrets, tables };
    return {
      ...project,
      ...served,
      routes,
      keys,
      functions,
      schedules,
      previewRoutes: previewRoutesOf(drafts, served),
      previewFunctions: previewFunctionsOf(functionDrafts, served),
    };
  }

  /** Compare-and-set of a sealed secret value (key rotation); a value changed meanwhile is left alone. */
  async replaceProjectSecret(tx: Tx, secretId: string, column: 'value' | 'preview_value', from: string, to: string): Promise<void> {
    if (column === 'value') await tx.$executeRaw`UPDATE secrets SET value_encrypted = ${to} WHERE id = ${secretId}::uuid AND value_encrypted = ${from}`;
    else await tx.$executeRaw`UPDATE secrets SET preview_value_encrypted = ${to} WHERE id = ${secretId}::uuid AND preview_value_encrypted = ${from}`;
  }

  /** Compare-and-set of a sealed integration secret (key rotation); a row changed meanwhile is left alone. */
  async replaceSecret(tx: Tx, projectId: string, kind: 'text_generation' | 'email', from: string, to: string): Promise<void> {
    // Raw SQL so updated_at (shown to the user) keeps the time of their last Save.
    await tx.$executeRaw`UPDATE integrations SET secret_encrypted = ${to}
      WHERE project_id = ${projectId}::uuid AND kind = ${kind}::integration_kind AND secret_encrypted = ${from}`;
  }

  async listProjectIds(): Promise<string[]> {
    const rows = await this.prisma.project.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
    return rows.map((row) => row.id);
  }

  /** Every project's id and subdomain (the cluster lost-state check compares them with Redis). */
  async listProjectAddresses(): Promise<Array<{ id: string; subdomain: string }>> {
    return this.prisma.project.findMany({ select: { id: true, subdomain: true }, orderBy: { id: 'asc' } });
  }

  /** Every project's id, subdomain and revision (the reconciler compares them with Redis). */
  async listProjectRevisions(): Promise<PublishedRevision[]> {
    return this.prisma.project.findMany({ select: { id: true, subdomain: true, revision: true }, orderBy: { id: 'asc' } });
  }

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work, { maxWait: 5000, timeout: 15000 });
  }
}
