import { useState } from 'react';
import { useFlowVersions, type FlowTarget } from '../../../api/flow-deploys';
import { docFromVersion } from '../model/owner-doc';
import { useWorkshop } from '../store/workshop-context';
import { describeChanges } from './version-changes';

/** The deployed versions, newest first: roll back to one, or see what the draft changes against it. */
export function VersionsMenu({ target, onRollback }: { target: FlowTarget; onRollback(version: number): void }) {
  const [open, setOpen] = useState(false);
  const [compared, setCompared] = useState<number | null>(null);
  const versions = useFlowVersions(target, open);
  const draft = useWorkshop((state) => state.doc);
  const items = [...(versions.data ?? [])].sort((a, b) => b.version - a.version);

  return (
    <div className="ws-menu" onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}>
      <button type="button" className="ws-button" aria-haspopup="true" aria-expanded={open} onClick={() => setOpen(!open)}>
        Versions
      </button>
      {open && (
        <div className="ws-menu-popup" role="region" aria-label="Versions">
          {versions.isPending && <p className="ws-muted">Loading…</p>}
          {versions.error && <p className="ws-field-error">The versions could not be loaded.</p>}
          {versions.data && items.length === 0 && <p className="ws-muted">Nothing deployed yet. Deploy creates version 1.</p>}
          <ul>
            {items.map((version) => (
              <li key={version.version}>
                <div className="ws-version-row">
                  <strong>Version {version.version}</strong>
                  {version.live && <span className="ws-tag ws-tag-live">live</span>}
                  <time dateTime={version.created_at}>{new Date(version.created_at).toLocaleString()}</time>
                </div>
                <div className="ws-version-actions">
                  <button type="button" className="ws-button ws-quiet" aria-expanded={compared === version.version} onClick={() => setCompared(compared === version.version ? null : version.version)}>
                    Changes in the draft since version {version.version}
                  </button>
                  {!version.live && (
                    <button type="button" className="ws-button" onClick={() => onRollback(version.version)}>
                      Roll back to version {version.version}
                    </button>
                  )}
                </div>
                {compared === version.version && <ChangeList changes={describeChanges(docFromVersion(version, draft), draft)} />}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function ChangeList({ changes }: { changes: string[] }) {
  if (changes.length === 0) return <p className="ws-muted">The draft is the same as this version.</p>;
  return (
    <ul className="ws-changes">
      {changes.map((change) => (
        <li key={change}>{change}</li>
      ))}
    </ul>
  );
}
