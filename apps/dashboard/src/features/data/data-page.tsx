import { useState } from 'react';
import './data.css';
import { Link } from 'react-router';
import { useTables } from '../../api/tables';
import type { DataTable } from '../../api/types';
import { ListTable } from '../../ui/list-table';
import { useCurrentProject } from '../../ui/use-current-project';
import { RelativeTime } from '../../ui/relative-time';
import { ListState } from '../../ui/states';
import { useDocumentTitle } from '../../ui/use-document-title';
import { NewTableDialog } from './new-table-dialog';

const count = new Intl.NumberFormat('en');

/** `/projects/:id/data`: the project's tables (name, rows) and `New table`. */
export function DataPage() {
  const project = useCurrentProject();
  useDocumentTitle('Data', project.name);
  const tables = useTables(project.id);
  const [creating, setCreating] = useState(false);
  return (
    <section className="page" aria-labelledby="data-title">
      <div className="page-header">
        <div>
          <h1 id="data-title">Data</h1>
          <p className="muted">Tables your flows read and write with the blocks under Tables in the Workshop.</p>
        </div>
        <div className="page-actions">
          <button type="button" className="button" onClick={() => setCreating(true)}>
            New table
          </button>
        </div>
      </div>
      <ListState query={tables} label="Loading tables…" emptyTitle="No tables yet" emptyHint="New table creates one: name it, add its columns, then add rows here or from a flow.">
        {(items) => <TablesList projectId={project.id} tables={items} />}
      </ListState>
      {creating && <NewTableDialog projectId={project.id} onClose={() => setCreating(false)} />}
    </section>
  );
}

function TablesList({ projectId, tables }: { projectId: string; tables: DataTable[] }) {
  return (
    <ListTable
      columns={['Name', { key: 'Rows', label: 'Rows', className: 'numeric' }, 'Columns', 'Updated']}
      items={tables}
      rowKey={(table) => table.id}
      cells={(table) => (
        <>
          <td className="name">
            <Link to={`/projects/${projectId}/data/${table.id}`}>{table.name}</Link>
          </td>
          <td className="numeric">{count.format(table.row_count)}</td>
          <td className="muted">{table.columns.map((column) => column.name).join(', ') || '—'}</td>
          <td>
            <RelativeTime iso={table.updated_at} />
          </td>
        </>
      )}
    />
  );
}
