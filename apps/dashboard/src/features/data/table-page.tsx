import { useRef, useState } from 'react';
import './data.css';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { exportCsvUrl, useDeleteRow, useRowPage, useTable } from '../../api/tables';
import type { DataTable, Row } from '../../api/types';
import { NotFoundPage } from '../../ui/not-found-page';
import { useCurrentProject } from '../../ui/use-current-project';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import { useDocumentTitle } from '../../ui/use-document-title';
import { usePendingDelete } from '../../ui/use-pending-delete';
import { DeleteTableDialog } from './delete-table';
import { EditColumnsDialog } from './edit-columns-dialog';
import { ImportCsv } from './import-csv';
import { RowDialog } from './row-dialog';
import { RowsTable } from './rows-table';

type Open = { dialog: 'row'; row: Row | null } | { dialog: 'columns' } | { dialog: 'delete' } | null;

/** `/projects/:id/data/:tableId`: one table's rows with Back/Next, its columns, CSV in and out, and deleting it. */
export function TablePage() {
  const project = useCurrentProject();
  const { tableId = '' } = useParams();
  const table = useTable(project.id, tableId);
  useDocumentTitle(table.data?.name, 'Data', project.name);
  if (table.isPending) return <Loading label="Loading the table…" />;
  if (isApiError(table.error) && table.error.status === 404) return <NotFoundPage what="table" />;
  if (table.error || !table.data) return <ErrorState error={table.error} onRetry={() => void table.refetch()} />;
  return <LoadedTable key={tableId} projectId={project.id} table={table.data} />;
}

function LoadedTable({ projectId, table }: { projectId: string; table: DataTable }) {
  // The cursors of the pages seen so far: Next pushes one, Back pops one (the API only goes forward).
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const page = useRowPage(projectId, table.id, cursors[cursors.length - 1] ?? null);
  const [open, setOpen] = useState<Open>(null);
  const [importProblem, setImportProblem] = useState<string | null>(null);
  const removeRow = useDeleteRow(projectId, table.id);
  const addRow = useRef<HTMLButtonElement>(null);
  // The deleted row's button goes with it: focus lands on Add row (after the dialog hands focus back).
  const deletion = usePendingDelete<Row & { name: string }>(removeRow, 'Row', () => requestAnimationFrame(() => addRow.current?.focus()));
  const rows = page.data?.items ?? [];
  const close = () => setOpen(null);

  return (
    <section className="page" aria-labelledby="table-title">
      <div className="page-header">
        <div>
          <p className="breadcrumb">
            <Link to={`/projects/${projectId}/data`}>Data</Link> /
          </p>
          <h1 id="table-title">{table.name}</h1>
          <p className="muted">
            {table.row_count === 1 ? '1 row' : `${new Intl.NumberFormat('en').format(table.row_count)} rows`} · {table.columns.length} {table.columns.length === 1 ? 'column' : 'columns'}
          </p>
        </div>
        <div className="page-actions">
          <button ref={addRow} type="button" className="button" onClick={() => setOpen({ dialog: 'row', row: null })}>
            Add row
          </button>
          <button type="button" className="button secondary" onClick={() => setOpen({ dialog: 'columns' })}>
            Edit columns
          </button>
          <ImportCsv projectId={projectId} tableId={table.id} onError={setImportProblem} />
          <a className="button secondary" href={exportCsvUrl(projectId, table.id)} download={`${table.name}.csv`}>
            Export CSV
          </a>
          <button type="button" className="button danger" onClick={() => setOpen({ dialog: 'delete' })}>
            Delete table
          </button>
        </div>
      </div>
      {importProblem && (
        <p className="form-error" role="alert">
          {importProblem}
        </p>
      )}

      {page.isPending ? (
        <Loading label="Loading rows…" />
      ) : page.error || !page.data ? (
        <ErrorState error={page.error} onRetry={() => void page.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={cursors.length > 1 ? 'No more rows' : 'No rows yet'}>
          <span>Add row adds one here; Import CSV adds many; flows add them with Insert Row.</span>
        </EmptyState>
      ) : (
        <RowsTable table={table} rows={rows} onEdit={(row) => setOpen({ dialog: 'row', row })} onDelete={(row) => deletion.ask({ ...row, name: row.id })} />
      )}

      <nav className="pager" aria-label="Pages">
        <button type="button" className="button secondary" disabled={cursors.length === 1 || page.isFetching} onClick={() => setCursors((stack) => stack.slice(0, -1))}>
          Back
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={!page.data?.next_cursor || page.isFetching}
          onClick={() => setCursors((stack) => [...stack, page.data?.next_cursor ?? null])}
        >
          Next
        </button>
      </nav>

      {open?.dialog === 'row' && <RowDialog projectId={projectId} table={table} row={open.row} onClose={close} />}
      {open?.dialog === 'columns' && <EditColumnsDialog projectId={projectId} table={table} onClose={close} />}
      {open?.dialog === 'delete' && <DeleteTableDialog projectId={projectId} table={table} onClose={close} />}
      {deletion.pending && (
        <ConfirmDialog title="Delete row?" onConfirm={deletion.confirm} onCancel={deletion.cancel} busy={removeRow.isPending} error={removeRow.error}>
          <p>
            Row <code>{deletion.pending.id}</code> is deleted at once. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
