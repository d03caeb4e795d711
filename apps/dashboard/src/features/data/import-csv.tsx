import type { ChangeEvent } from 'react';
import { errorMessage } from '../../api/api-error';
import { useImportCsv } from '../../api/tables';
import { useAnnounce } from '../../ui/announcer';

const count = new Intl.NumberFormat('en');

/**
 * `Import CSV`: a file input dressed as a button. The header row names the columns; the server
 * adds every row or none, and names the first bad row by its line number.
 */
export function ImportCsv({ projectId, tableId, onError }: { projectId: string; tableId: string; onError: (message: string | null) => void }) {
  const importer = useImportCsv(projectId, tableId);
  const announce = useAnnounce();
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    onError(null);
    importer.mutate(file, {
      onSuccess: ({ inserted }) => announce(`Imported ${count.format(inserted)} ${inserted === 1 ? 'row' : 'rows'} from ${file.name}`),
      onError: (error) => onError(`${file.name} was not imported: ${errorMessage(error)}`),
    });
  };
  return (
    <label className={importer.isPending ? 'button secondary file-button busy' : 'button secondary file-button'}>
      {importer.isPending ? 'Importing…' : 'Import CSV'}
      <input type="file" accept=".csv,text/csv" className="visually-hidden" aria-label="Import CSV" disabled={importer.isPending} onChange={chosen} />
    </label>
  );
}
