// TEMPORARY: the data-table operations as the contract describes them, until the control plane
// publishes them and `npm run api:types` puts them in openapi.ts. Delete this file then.
import './openapi';

export type TableColumnDto = {
  name: string;
  type: 'text' | 'number' | 'boolean' | 'datetime' | 'json';
  required: boolean;
  unique: boolean;
  indexed: boolean;
};
export type TableDto = { id: string; name: string; columns: TableColumnDto[]; row_count: number; created_at: string; updated_at: string };
export type TableListDto = { items: TableDto[] };
export type CreateTableDto = { name: string; columns: Array<Partial<TableColumnDto> & Pick<TableColumnDto, 'name' | 'type'>> };
export type UpdateTableDto = { name?: string; columns?: Array<Partial<TableColumnDto> & Pick<TableColumnDto, 'name' | 'type'> & { renamed_from?: string }> };
export type RowDto = { id: string; created_at: string; updated_at: string; [column: string]: unknown };
export type RowPageDto = { items: RowDto[]; next_cursor: string | null };
export type RowValuesDto = { values: { [column: string]: unknown } };
export type TableImportResultDto = { inserted: number };

declare module './openapi' {
  interface Operations {
    'GET /v1/projects/{projectId}/tables': { params: { projectId: string }; query: never; body: never; response: TableListDto };
    'POST /v1/projects/{projectId}/tables': { params: { projectId: string }; query: never; body: CreateTableDto; response: TableDto };
    'GET /v1/projects/{projectId}/tables/{tableId}': { params: { projectId: string; tableId: string }; query: never; body: never; response: TableDto };
    'PATCH /v1/projects/{projectId}/tables/{tableId}': { params: { projectId: string; tableId: string }; query: never; body: UpdateTableDto; response: TableDto };
    'DELETE /v1/projects/{projectId}/tables/{tableId}': { params: { projectId: string; tableId: string }; query: { force?: 'true' | 'false' }; body: never; response: unknown };
    'GET /v1/projects/{projectId}/tables/{tableId}/rows': {
      params: { projectId: string; tableId: string };
      query: { filter?: string; sort?: string; limit?: number; cursor?: string };
      body: never;
      response: RowPageDto;
    };
    'POST /v1/projects/{projectId}/tables/{tableId}/rows': { params: { projectId: string; tableId: string }; query: never; body: RowValuesDto; response: RowDto };
    'PATCH /v1/projects/{projectId}/tables/{tableId}/rows/{rowId}': { params: { projectId: string; tableId: string; rowId: string }; query: never; body: RowValuesDto; response: RowDto };
    'DELETE /v1/projects/{projectId}/tables/{tableId}/rows/{rowId}': { params: { projectId: string; tableId: string; rowId: string }; query: never; body: never; response: unknown };
  }
}
