import { useRef, useState, type ChangeEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/api-error';
import { useImportEndpoint } from '../../api/endpoints';
import { useAnnounce } from '../../ui/announcer';

/** `Import`: picks an exported endpoint file and creates a draft from it, then opens it in the Workshop. */
export function ImportEndpoint({ projectId }: { projectId: string }) {
  const input = useRef<HTMLInputElement>(null);
  const importer = useImportEndpoint(projectId);
  const [unreadable, setUnreadable] = useState<string | null>(null);
  const announce = useAnnounce();
  const navigate = useNavigate();

  const chosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    importer.reset();
    setUnreadable(null);
    let document: unknown;
    try {
      document = JSON.parse(await readText(file));
    } catch {
      setUnreadable(`${file.name} is not a JSON file: export an endpoint from the Workshop and import that file.`);
      return;
    }
    importer.mutate(document, {
      onSuccess: (endpoint) => {
        announce(`Endpoint ${endpoint.name} imported as a draft`);
        void navigate(`/projects/${projectId}/endpoints/${endpoint.id}`);
      },
    });
  };

  const details = importer.error instanceof ApiError ? importer.error.details : [];
  return (
    <>
      <button type="button" className="button secondary" onClick={() => input.current?.click()} disabled={importer.isPending}>
        {importer.isPending ? 'Importing…' : 'Import'}
      </button>
      <input ref={input} type="file" accept="application/json,.json" aria-label="Endpoint file to import" hidden onChange={(event) => void chosen(event)} />
      {(unreadable || importer.error) && (
        <div className="form-error import-error" role="alert">
          <p>{unreadable ?? `The file was not imported: ${errorMessage(importer.error)}`}</p>
          {details.length > 0 && (
            <ul>
              {details.map((detail) => (
                <li key={`${detail.path}:${detail.message}`}>
                  <code>{detail.path}</code> {detail.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  );
}

/** The file's text (FileReader: also where `Blob.text()` is missing, e.g. older engines and jsdom). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsText(file);
  });
}
