/**
 * Where a project's rows are stored: schema `p_<project id>` and table `t_<table id>` (ids as
 * 32 hex digits). Storage names come from ids only — a table's or column's user-given name never
 * picks a schema — so a flow or request of one project cannot name another project's storage.
 */
import { isUuid } from '@flowgate/platform';

/** `"name"`, doubling any quote (identifiers are always quoted, even our own). */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

function hexOf(id: string, what: string): string {
  if (!isUuid(id)) throw new Error(`${what} id is not a UUID: ${id}`);
  return id.replaceAll('-', '').toLowerCase();
}

export const projectSchemaName = (projectId: string): string => `p_${hexOf(projectId, 'project')}`;

export interface TableLocation {
  projectId: string;
  tableId: string;
}

/** `"p_…"."t_…"`: the one place a table's storage name is made. */
export const qualifiedTable = ({ projectId, tableId }: TableLocation): string =>
  `${quoteIdent(projectSchemaName(projectId))}.${quoteIdent(`t_${hexOf(tableId, 'table')}`)}`;
