import { Inject, Injectable } from '@nestjs/common';
import { Prisma, PrismaClient } from '@flowgate/db';
import { type CallableFunction, type FlowDocument, type FunctionInput, functionCallsOf } from '@flowgate/flow-engine';
import type { Tx } from '../infrastructure/transaction';

/** A live flow that calls a function: what a 409 `function_in_use` names. */
export interface Caller {
  kind: 'endpoint' | 'function' | 'schedule';
  id: string;
  /** `GET /orders (Orders)`, `function Price`, `schedule Nightly`. */
  label: string;
}

/**
 * The project's functions as other flows see them: what Call Function may call (Save, Deploy,
 * test runs, the preview address), who calls a function (delete, undeploy), and the calls
 * among live functions (cycles at Deploy).
 */
@Injectable()
export class FunctionCatalog {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** Inputs of the live version (`live`) or of the draft (`draft`) of each function. */
  async callable(projectId: string, versions: 'live' | 'draft', db: Tx | PrismaClient = this.prisma): Promise<CallableFunction[]> {
    const rows = await db.$queryRaw<Array<{ id: string; name: string; draft: unknown; live: unknown }>>`
      SELECT f.id, f.name, f.inputs AS draft, v.inputs AS live
      FROM functions f LEFT JOIN function_versions v ON v.function_id = f.id AND v.version = f.live_version
      WHERE f.project_id = ${projectId}::uuid ORDER BY f.name`;
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      live: row.live !== null,
      inputs: ((versions === 'live' && row.live !== null ? row.live : row.draft) ?? []) as FunctionInput[],
    }));
  }

  /** The drafts that `compile` accepts, compiled, by id (test runs call the drafts, as the preview address does). */
  async compiledDrafts(
    projectId: string,
    compile: (flow: FlowDocument, inputs: FunctionInput[]) => { ok: true; compiled: unknown } | { ok: false },
  ): Promise<Array<[string, unknown]>> {
    const drafts = await this.prisma.flowFunction.findMany({ where: { projectId }, select: { id: true, inputs: true, flow: true } });
    const compiled: Array<[string, unknown]> = [];
    for (const draft of drafts) {
      const outcome = compile(draft.flow as FlowDocument, (Array.isArray(draft.inputs) ? draft.inputs : []) as FunctionInput[]);
      if (outcome.ok) compiled.push([draft.id, outcome.compiled]);
    }
    return compiled;
  }

  /** Each live function's calls (function id → the ids its live version calls). */
  async liveCalls(tx: Tx, projectId: string): Promise<Map<string, { name: string; calls: string[] }>> {
    const rows = await tx.$queryRaw<Array<{ id: string; name: string; flow: unknown }>>`
      SELECT f.id, f.name, v.flow FROM functions f
      JOIN function_versions v ON v.function_id = f.id AND v.version = f.live_version
      WHERE f.project_id = ${projectId}::uuid`;
    return new Map(rows.map((row) => [row.id, { name: row.name, calls: functionCallsOf(row.flow) }]));
  }

  /** The live endpoints, functions and schedules whose live version calls `functionId` (itself excluded). */
  async callersOf(tx: Tx, projectId: string, functionId: string): Promise<Caller[]> {
    const rows = await tx.$queryRaw<Array<{ kind: Caller['kind']; id: string; label: string }>>`
      SELECT 'endpoint' AS kind, e.id, v.method::text || ' ' || v.path || ' (' || v.name || ')' AS label
        FROM endpoints e JOIN endpoint_versions v ON v.endpoint_id = e.id AND v.version = e.live_version
        WHERE e.project_id = ${projectId}::uuid AND ${calls(functionId)}
      UNION ALL
      SELECT 'function', f.id, 'function ' || v.name
        FROM functions f JOIN function_versions v ON v.function_id = f.id AND v.version = f.live_version
        WHERE f.project_id = ${projectId}::uuid AND f.id <> ${functionId}::uuid AND ${calls(functionId)}
      UNION ALL
      SELECT 'schedule', s.id, 'schedule ' || v.name
        FROM schedules s JOIN schedule_versions v ON v.schedule_id = s.id AND v.version = s.live_version
        WHERE s.project_id = ${projectId}::uuid AND ${calls(functionId)}
      ORDER BY 1, 3`;
    return rows;
  }
}

/** The version `v`'s flow has a Call Function block calling `functionId`. */
function calls(functionId: string) {
  return Prisma.sql`EXISTS (SELECT 1 FROM jsonb_array_elements(v.flow->'nodes') AS node
    WHERE node->>'type' = 'call_function' AND node->'config'->>'function' = ${functionId})`;
}
