export { DataError, dataErrorOf, type DataErrorCode } from './data-error';
export { createDataPool, inTransaction, setupDataDatabase, writeDataLimits, type DataLimits, type DataPoolOptions } from './data-database';
export { RowStore, type DataRow, type RowPage, type RowQuery, type StoredTable, type Queryable } from './row-store';
export {
  ColumnChange,
  createTableStorage,
  dropProjectStorage,
  dropTableStorage,
  planColumns,
  rowCounts,
  type ColumnPlan,
  type ColumnUpdate,
} from './table-ddl';
export { importCsv, exportCsv, CsvRowError } from './table-csv';
export { toStoredValue } from './column-values';
export { qualifiedTable, projectSchemaName } from './storage-names';
export { createDataPort } from './data-port';
export { FairDataPool } from './fair-data-pool';
