import type { ReactNode } from 'react';

/** A column header: its text, or the text with a class (`numeric`) and a tooltip. */
export type Column = string | { key: string; label: ReactNode; className?: string; title?: string };

/**
 * The dashboard's lists as a table (in `.table-wrap`, which scrolls sideways on narrow screens):
 * one `columnheader` a column, one row an item with the cells `cells` gives it, and with `actions`
 * a last column whose header "Actions" only screen readers read.
 */
export function ListTable<T>({
  columns,
  items,
  rowKey,
  cells,
  actions = false,
  className,
  rowClassName,
}: {
  columns: Column[];
  items: readonly T[];
  rowKey: (item: T) => string;
  cells: (item: T) => ReactNode;
  actions?: boolean;
  className?: string;
  rowClassName?: (item: T) => string | undefined;
}) {
  return (
    <div className="table-wrap">
      <table className={className}>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.key} scope="col" className={column.className} title={column.title}>
                  {column.label}
                </th>
              ),
            )}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={rowKey(item)} className={rowClassName?.(item)}>
              {cells(item)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What a cell with no value shows: a muted dash. */
export function NoValue() {
  return <span className="muted">—</span>;
}
