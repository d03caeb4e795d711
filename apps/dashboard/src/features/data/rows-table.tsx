import type { DataTable, Row } from '../../api/types';
import { ListTable, NoValue } from '../../ui/list-table';
import { cellText } from './row-values';

/** "2026-11-24 09:30:05" in the viewer's time zone: short enough for two columns of them; the ISO time is on hover. */
const stamp = (iso: string) => {
  const date = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
};

/** The rows: `id`, the table's columns, `created_at`, `updated_at`, and `Edit row` / `Delete row` on each. */
export function RowsTable({ table, rows, onEdit, onDelete }: { table: DataTable; rows: Row[]; onEdit: (row: Row) => void; onDelete: (row: Row) => void }) {
  const columns = table.columns.map((column) => ({ key: `column ${column.name}`, label: column.name, className: column.type === 'number' ? 'numeric' : undefined, title: column.type }));
  return (
    <ListTable
      className="rows-table"
      columns={['id', ...columns, 'created_at', 'updated_at']}
      actions
      items={rows}
      rowKey={(row) => row.id}
      cells={(row) => (
        <>
          <td className="row-id" title={row.id}>
            <code>{row.id}</code>
          </td>
          {table.columns.map((column) => {
            const text = cellText(row[column.name]);
            return (
              <td key={column.name} className={column.type === 'number' ? 'numeric cell' : 'cell'} title={text.length > 40 ? text : undefined}>
                {text === '' ? <NoValue /> : text}
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
            <button type="button" className="button ghost small" onClick={() => onDelete(row)}>
              Delete row
            </button>
          </td>
        </>
      )}
    />
  );
}
