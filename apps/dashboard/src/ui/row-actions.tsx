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
