import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, pathOf, send } from './client';
import { queryKeys } from './query-keys';
import type { NewTable, RowValues, TableChanges } from './types';

export const ROW_PAGE_SIZE = 50;

const TABLE = '/v1/projects/{projectId}/tables/{tableId}';

export function useTables(projectId: string) {
  return useQuery({
    queryKey: queryKeys.tables(projectId),
    queryFn: async () => (await api('GET /v1/projects/{projectId}/tables', { params: { projectId } })).items,
  });
}

export function useTable(projectId: string, tableId: string) {
  return useQuery({
    queryKey: queryKeys.table(projectId, tableId),
    queryFn: () => api('GET /v1/projects/{projectId}/tables/{tableId}', { params: { projectId, tableId } }),
  });
}

/** One page of a table's rows (oldest first); `cursor` from the previous page's `next_cursor`. */
export function useRowPage(projectId: string, tableId: string, cursor: string | null) {
  return useQuery({
    queryKey: [...queryKeys.rows(projectId, tableId), cursor],
    queryFn: ({ signal }) =>
      api('GET /v1/projects/{projectId}/tables/{tableId}/rows', { params: { projectId, tableId }, query: { limit: ROW_PAGE_SIZE, cursor: cursor ?? undefined }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateTable(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewTable) => api('POST /v1/projects/{projectId}/tables', { params: { projectId }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.tables(projectId) }),
  });
}

export function useUpdateTable(projectId: string, tableId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TableChanges) => api('PATCH /v1/projects/{projectId}/tables/{tableId}', { params: { projectId, tableId }, body }),
    onSuccess: (table) => {
      client.setQueryData(queryKeys.table(projectId, tableId), table);
      return client.invalidateQueries({ queryKey: queryKeys.tables(projectId) });
    },
  });
}

/** `force`: delete even when live endpoints use the table (they then answer errors). */
export function useDeleteTable(projectId: string, tableId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (force: boolean) => api('DELETE /v1/projects/{projectId}/tables/{tableId}', { params: { projectId, tableId }, query: force ? { force: 'true' } : {} }),
    onSuccess: () => {
      client.removeQueries({ queryKey: queryKeys.table(projectId, tableId) });
      return client.invalidateQueries({ queryKey: queryKeys.tables(projectId), exact: true });
    },
  });
}

/** Add (no `rowId`) or change one row; the table's row count and pages change with it. */
export function useSaveRow(projectId: string, tableId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ rowId, values }: { rowId?: string; values: RowValues }) =>
      rowId
        ? api('PATCH /v1/projects/{projectId}/tables/{tableId}/rows/{rowId}', { params: { projectId, tableId, rowId }, body: { values } })
        : api('POST /v1/projects/{projectId}/tables/{tableId}/rows', { params: { projectId, tableId }, body: { values } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.tables(projectId) }),
  });
}

export function useDeleteRow(projectId: string, tableId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rowId: string) => api('DELETE /v1/projects/{projectId}/tables/{tableId}/rows/{rowId}', { params: { projectId, tableId, rowId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.tables(projectId) }),
  });
}

/** `POST …/import` with the file as `text/csv` (the header row names the columns) → how many rows were added. */
export function useImportCsv(projectId: string, tableId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: Blob) => {
      const response = await send('POST', `${pathOf(TABLE, { projectId, tableId })}/import`, { body: file, contentType: 'text/csv' });
      return (await response.json()) as { inserted: number };
    },
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.tables(projectId) }),
  });
}

/** Where `Export CSV` downloads the table from (the session cookie goes with a same-origin link). */
export const exportCsvUrl = (projectId: string, tableId: string) => `${pathOf(TABLE, { projectId, tableId })}/export`;
