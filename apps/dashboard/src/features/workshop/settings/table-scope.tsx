import { SYSTEM_COLUMNS } from '@flowgate/contracts';
import { createContext, type ReactNode, useContext } from 'react';
import { useParams } from 'react-router';
import { useTables } from '../../../api/tables';
import type { DataTable } from '../../../api/types';

export interface TableScope {
  /** The project's tables; undefined while they load or when they cannot be read. */
  tables: readonly DataTable[] | undefined;
  /** The table the block names, when the project has it. */
  table: DataTable | undefined;
}

const TableScopeContext = createContext<TableScope | null>(null);

/** The tables and columns a table block's fields offer; null outside a table block's form. */
export const useTableScope = () => useContext(TableScopeContext);

/** Loads the project's tables for the form of a block that names one (`tableName` from its config). */
export function TableScopeProvider({ tableName, children }: { tableName: unknown; children: ReactNode }) {
  const { projectId = '' } = useParams();
  const tables = useTables(projectId).data;
  const table = tables?.find((candidate) => candidate.name === tableName);
  return <TableScopeContext.Provider value={{ tables, table }}>{children}</TableScopeContext.Provider>;
}

/** The names a column field offers: the table's columns, then the ones every row has. */
export const columnNames = (table: DataTable | undefined): string[] => (table ? [...table.columns.map((column) => column.name), ...SYSTEM_COLUMNS] : []);
