import type { Readable, Writable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { exportCsv, importCsv, RowStore, type DataRow, type RowPage } from '@flowgate/data-tables';
import { AppError } from '../common/app-error';
import { DataDatabase } from '../infrastructure/data-database';
import { restError } from './data-errors';
import type { ListRowsQuery } from './dto/row.dto';
import type { TableRecord } from './tables.repository';
import { TablesService } from './tables.service';

const rowNotFound = () => new AppError('row_not_found', 'Row not found');
const stored = (table: TableRecord) => ({ projectId: table.projectId, tableId: table.id, columns: table.columns });

/** The rows of a table through the REST API: the same storage the table blocks use. */
@Injectable()
export class RowsService {
  constructor(
    private readonly tables: TablesService,
    private readonly data: DataDatabase,
  ) {}

  /** The table's rows, each statement in the account's turn on the shared pool (FairDataPool). */
  private async store(accountId: string, projectId: string, tableId: string): Promise<RowStore> {
    return new RowStore(this.data.rows.forTenant(accountId), stored(await this.tables.require(accountId, projectId, tableId)));
  }

  async list(accountId: string, projectId: string, tableId: string, query: ListRowsQuery): Promise<RowPage> {
    const store = await this.store(accountId, projectId, tableId);
    const sort = query.sort ? { column: query.sort.replace(/^-/, ''), direction: query.sort.startsWith('-') ? ('desc' as const) : ('asc' as const) } : null;
    try {
      return await store.query({ filter: query.filter, sort, limit: query.limit, cursor: query.cursor ?? null });
    } catch (error) {
      throw restError(error, (column) => (column === 'cursor' ? 'cursor' : column === sort?.column ? 'sort' : 'filter'));
    }
  }

  async get(accountId: string, projectId: string, tableId: string, rowId: string): Promise<DataRow> {
    const row = await (await this.store(accountId, projectId, tableId)).get(rowId);
    if (!row) throw rowNotFound();
    return row;
  }

  async create(accountId: string, projectId: string, tableId: string, values: Record<string, unknown>): Promise<DataRow> {
    const store = await this.store(accountId, projectId, tableId);
    try {
      return await store.insert(values);
    } catch (error) {
      throw restError(error, valuesPath);
    }
  }

  async update(accountId: string, projectId: string, tableId: string, rowId: string, values: Record<string, unknown>): Promise<DataRow> {
    const store = await this.store(accountId, projectId, tableId);
    if (!(await store.get(rowId))) throw rowNotFound();
    try {
      const [row] = await store.update([{ column: 'id', operator: 'eq', value: rowId }], values);
      if (!row) throw rowNotFound();
      return row;
    } catch (error) {
      throw restError(error, valuesPath);
    }
  }

  async delete(accountId: string, projectId: string, tableId: string, rowId: string): Promise<void> {
    const store = await this.store(accountId, projectId, tableId);
    if (!(await store.get(rowId))) throw rowNotFound();
    await store.delete([{ column: 'id', operator: 'eq', value: rowId }]);
  }

  async import(accountId: string, projectId: string, tableId: string, input: Readable): Promise<{ inserted: number }> {
    const table = await this.tables.require(accountId, projectId, tableId);
    try {
      // One connection for the whole import, held in the account's turn.
      return await this.data.rows.withTurn(accountId, () => importCsv(this.data.rows.pool, stored(table), input));
    } catch (error) {
      throw restError(error);
    }
  }

  /** The table's name (for the file name), then the CSV written to `output`. */
  async exportTo(accountId: string, projectId: string, tableId: string, start: (tableName: string) => Writable): Promise<void> {
    const table = await this.tables.require(accountId, projectId, tableId);
    await exportCsv(this.data.rows.forTenant(accountId), stored(table), start(table.name));
  }
}

const valuesPath = (column: string | null): string => (column ? `values.${column}` : 'values');
