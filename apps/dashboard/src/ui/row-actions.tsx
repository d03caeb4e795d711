/** The last column of a table whose rows can be deleted: a header for screen readers only. */
export function ActionsHeader() {
  return (
    <th scope="col">
      <span className="visually-hidden">Actions</span>
    </th>
  );
}

/** `Delete <kind> <name>` (the accessible name), shown as "Delete". */
export function DeleteRowButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <td className="actions">
      <button type="button" className="button ghost" aria-label={label} onClick={onClick}>
        Delete
      </button>
    </td>
  );
}
