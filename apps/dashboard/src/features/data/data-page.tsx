import { useState } from 'react';
import './data.css';
import { Link } from 'react-router';
import { useTables } from '../../api/tables';
import type { DataTable } from '../../api/types';
import { useCurrentProject } from '../../ui/use-current-project';
import { RelativeTime } from '../../ui/relative-time';
import { EmptyState, QueryState } from '../../ui/states';
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
      <QueryState query={tables} label="Loading tables…">
        {(items) =>
          items.length === 0 ? (
            <EmptyState title="No tables yet">
              <span>New table creates one: name it, add its columns, then add rows here or from a flow.</span>
            </EmptyState>
          ) : (
            <TablesList projectId={project.id} tables={items} />
          )
        }
      </QueryState>
      {creating && <NewTableDialog projectId={project.id} onClose={() => setCreating(false)} />}
    </section>
  );
}

function TablesList({ projectId, tables }: { projectId: string; tables: DataTable[] }) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="numeric">
              Rows
            </th>
            <th scope="col">Columns</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {tables.map((table) => (
            <tr key={table.id}>
              <td className="name">
                <Link to={`/projects/${projectId}/data/${table.id}`}>{table.name}</Link>
              </td>
              <td className="numeric">{count.format(table.row_count)}</td>
              <td className="muted">{table.columns.map((column) => column.name).join(', ') || '—'}</td>
              <td>
                <RelativeTime iso={table.updated_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
