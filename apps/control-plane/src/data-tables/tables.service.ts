import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DataColumn, PublishedDataTable } from '@flowgate/contracts';
import { ColumnChange, createTableStorage, dropTableStorage, inTransaction, planColumns, rowCounts, type ColumnUpdate } from '@flowgate/data-tables';
import { tableUsesOf } from '@flowgate/flow-engine';
import { AppError, conflict } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { DataDatabase } from '../infrastructure/data-database';
import { ProjectsService } from '../projects/projects.service';
import { type ProjectScope, PublicationService } from '../publication/publication.service';
import { restError } from './data-errors';
import type { CreateTableInput, TableView, UpdateTableInput } from './dto/table.dto';
import { type TableRecord, TablesRepository } from './tables.repository';

/**
 * Data tables of a project: definitions in the control plane's database (published with the
 * project, so gateways and deploy checks know the columns), storage in the data database. A
 * storage change runs in a data-database transaction that commits after the definition is
 * published, so the two never disagree once the answer is out (docs/data-tables.md).
 */
@Injectable()
export class TablesService {
  constructor(
    private readonly tables: TablesRepository,
    private readonly projects: ProjectsService,
    private readonly publication: PublicationService,
    private readonly data: DataDatabase,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  async list(accountId: string, projectId: string): Promise<TableView[]> {
    await this.projects.requireOwned(accountId, projectId);
    const [records, counts] = await Promise.all([this.tables.list(projectId), rowCounts(this.data.pool, projectId)]);
    return records.map((record) => view(record, counts.get(record.id) ?? 0));
  }

  async get(accountId: string, projectId: string, tableId: string): Promise<TableView> {
    const record = await this.require(accountId, projectId, tableId);
    return view(record, (await rowCounts(this.data.pool, projectId)).get(tableId) ?? 0);
  }

  /** The tables as flows see them: deploy checks (CompileContext.tables) and the test runs' port. */
  async forFlows(projectId: string): Promise<PublishedDataTable[]> {
    return (await this.tables.list(projectId)).map(({ id, name, columns }) => ({ id, name, columns }));
  }

  /** The table if the account owns its project; 404 otherwise. */
  async require(accountId: string, projectId: string, tableId: string): Promise<TableRecord> {
    await this.projects.requireOwned(accountId, projectId);
    const record = await this.tables.find(projectId, tableId);
    if (!record) throw new AppError('table_not_found', 'Table not found');
    return record;
  }

  async create(scope: Required<ProjectScope>, input: CreateTableInput): Promise<TableView> {
    await this.projects.requireOwned(scope.accountId, scope.projectId);
    const id = randomUUID();
    const record = await inTransaction(this.data.pool, async (client) => {
      await createTableStorage(client, { projectId: scope.projectId, tableId: id }, input.columns);
      return this.publication.changeServing(scope, async (tx) => {
        const count = await this.tables.count(tx, scope.projectId);
        if (count >= this.config.data.maxTables)
          throw new AppError('data_limit_reached', `The project has ${count} tables; the limit is ${this.config.data.maxTables} (DATA_MAX_TABLES_PER_PROJECT)`);
        if (await this.tables.nameTaken(tx, scope.projectId, input.name)) throw conflict('name', `a table named ${input.name} exists in this project`);
        return this.tables.insert(tx, { id, projectId: scope.projectId, name: input.name, columns: input.columns });
      });
    });
    return view(record, 0);
  }

  async update(scope: Required<ProjectScope>, tableId: string, input: UpdateTableInput): Promise<TableView> {
    const table = await this.require(scope.accountId, scope.projectId, tableId);
    const name = input.name ?? table.name;
    const uses = await this.liveUses(scope.projectId, table.name);
    if (name !== table.name && uses.length > 0)
      throw new AppError('table_in_use', `Live endpoints use the table ${table.name}: ${endpointList(uses)}. Undeploy them or change their flows first.`, uses.map(describeUse));
    const change = input.columns ? this.columnChange(table, input.columns, uses) : null;
    try {
      await change?.prepare();
      const record = await inTransaction(this.data.pool, async (client) => {
        await change?.apply(client);
        return this.publication.changeServing(scope, async (tx) => {
          if (name !== table.name && (await this.tables.nameTaken(tx, scope.projectId, name, tableId))) throw conflict('name', `a table named ${name} exists in this project`);
          return this.tables.update(tx, tableId, { name, columns: input.columns ? input.columns.map(stripRename) : table.columns });
        });
      });
      await change?.finish().catch(() => undefined); // statistics only: the change is done
      return view(record, (await rowCounts(this.data.pool, scope.projectId)).get(tableId) ?? 0);
    } catch (error) {
      await change?.discard();
      throw restError(error, (column) => `columns.${column ?? ''}`);
    }
  }

  /** Refuses renaming or dropping a column a live flow names (its endpoint would fail at once). */
  private columnChange(table: TableRecord, columns: ColumnUpdate[], uses: Use[]): ColumnChange {
    let plan;
    try {
      plan = planColumns(table.columns, columns);
    } catch (error) {
      throw restError(error, () => 'columns');
    }
    const renamed = plan.kept.filter(({ before, after }) => before.name !== after.name).map(({ before }) => before.name);
    const gone = [...renamed, ...plan.dropped.map((column) => column.name)];
    for (const column of gone) {
      const users = uses.filter((use) => use.columns.includes(column));
      if (users.length > 0)
        throw new AppError(
          'column_in_use',
          `Live endpoints use the column ${column} of ${table.name}: ${endpointList(users)}. Deploy them without it first.`,
          users.map(describeUse),
        );
    }
    return new ColumnChange(this.data.pool, { projectId: table.projectId, tableId: table.id }, plan);
  }

  async delete(scope: Required<ProjectScope>, tableId: string, force: boolean): Promise<void> {
    const table = await this.require(scope.accountId, scope.projectId, tableId);
    const uses = await this.liveUses(scope.projectId, table.name);
    if (uses.length > 0 && !force)
      throw new AppError('table_in_use', `Live endpoints use the table ${table.name}: ${endpointList(uses)}. Delete with force=true to delete it anyway.`, uses.map(describeUse));
    await inTransaction(this.data.pool, async (client) => {
      await dropTableStorage(client, { projectId: scope.projectId, tableId });
      await this.publication.changeServing(scope, (tx) => this.tables.delete(tx, tableId));
    });
  }

  private async liveUses(projectId: string, tableName: string): Promise<Use[]> {
    const flows = await this.tables.liveFlows(projectId);
    return flows.flatMap((flow) =>
      tableUsesOf(flow.compiled)
        .filter((use) => use.table === tableName)
        .map((use) => ({ endpoint: `${flow.method} ${flow.path}`, node_id: use.node_id, columns: use.columns })),
    );
  }
}

interface Use {
  endpoint: string;
  node_id: string;
  columns: string[];
}

const endpointList = (uses: Use[]): string => [...new Set(uses.map((use) => use.endpoint))].join(', ');
const describeUse = (use: Use) => ({ path: use.endpoint, message: `block ${use.node_id}` });

const stripRename = ({ renamed_from: _renamed, ...column }: ColumnUpdate): DataColumn => column;

function view(record: TableRecord, rowCount: number): TableView {
  return {
    id: record.id,
    name: record.name,
    columns: record.columns,
    row_count: rowCount,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}
