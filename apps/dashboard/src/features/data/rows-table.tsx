import type { DataTable, Row } from '../../api/types';
import { ActionsHeader } from '../../ui/row-actions';
import { cellText } from './row-values';

/** "2026-11-24 09:30:05" in the viewer's time zone: short enough for two columns of them; the ISO time is on hover. */
const stamp = (iso: string) => {
  const date = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
};

/** The rows: `id`, the table's columns, `created_at`, `updated_at`, and `Edit row` / `Delete row` on each. */
export function RowsTable({ table, rows, onEdit, onDelete }: { table: DataTable; rows: Row[]; onEdit: (row: Row) => void; onDelete: (row: Row) => void }) {
  return (
    <div className="table-wrap">
      <table className="rows-table">
        <thead>
          <tr>
            <th scope="col">id</th>
            {table.columns.map((column) => (
              <th key={column.name} scope="col" className={column.type === 'number' ? 'numeric' : undefined} title={column.type}>
                {column.name}
              </th>
            ))}
            <th scope="col">created_at</th>
            <th scope="col">updated_at</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td className="row-id" title={row.id}>
                <code>{row.id}</code>
              </td>
              {table.columns.map((column) => {
                const text = cellText(row[column.name]);
                return (
                  <td key={column.name} className={column.type === 'number' ? 'numeric cell' : 'cell'} title={text.length > 40 ? text : undefined}>
                    {text === '' ? <span className="muted">—</span> : text}
                  </td>
                );
              })}
              {[row.created_at, row.updated_at].map((iso, index) => (
                <td key={index} className="time">
                  <time dateTime={iso} title={iso}>
                    {stamp(iso)}
                  </time>
                </td>
              ))}
              <td className="actions">
                <button type="button" className="button secondary small" onClick={() => onEdit(row)}>
                  Edit row
                </button>{' '}
                <button type="button" className="button ghost" onClick={() => onDelete(row)}>
                  Delete row
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
