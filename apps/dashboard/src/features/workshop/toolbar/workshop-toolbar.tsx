import { useReactFlow } from '@xyflow/react';
import type { Endpoint } from '../../../api/types';
import { exportDocument } from '../model/endpoint-doc';
import { useHistoryAvailability, useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { isDirty } from '../store/workshop-store';
import { StatusTag } from './status-tag';
import { VersionsMenu } from './versions-menu';

interface ToolbarProps {
  endpoint: Endpoint;
  busy: boolean;
  testOpen: boolean;
  onSave(): void;
  onDeploy(): void;
  onTidy(): void;
  onRollback(version: number): void;
  onToggleTest(): void;
}

const shortcut = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl+';

/** Canvas controls, history, Save / Deploy / Test, the live status and the versions. */
export function WorkshopToolbar({ endpoint, busy, testOpen, onSave, onDeploy, onTidy, onRollback, onToggleTest }: ToolbarProps) {
  const { zoomIn, zoomOut, fitView } = useReactFlow();
  const store = useWorkshopStore();
  const { canUndo, canRedo } = useHistoryAvailability();
  const dirty = useWorkshop(isDirty);
  const undo = useWorkshop((state) => state.undo);
  const redo = useWorkshop((state) => state.redo);

  const download = () => {
    const url = URL.createObjectURL(new Blob([exportDocument(store.getState().doc)], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${endpoint.name.replace(/[^\w.-]+/g, '-').toLowerCase() || 'endpoint'}.flowgate.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <div className="ws-toolbar" role="toolbar" aria-label="Workshop">
      <div className="ws-group">
        <button type="button" className="ws-button ws-icon" aria-label="Zoom in" title="Zoom in" onClick={() => void zoomIn()}>
          +
        </button>
        <button type="button" className="ws-button ws-icon" aria-label="Zoom out" title="Zoom out" onClick={() => void zoomOut()}>
          −
        </button>
        <button type="button" className="ws-button" onClick={() => void fitView({ maxZoom: 1.2, duration: 200 })}>
          Fit view
        </button>
        <button type="button" className="ws-button" onClick={onTidy}>
          Tidy up
        </button>
      </div>
      <div className="ws-group">
        <button type="button" className="ws-button" disabled={!canUndo} title={`${shortcut}Z`} onClick={undo}>
          Undo
        </button>
        <button type="button" className="ws-button" disabled={!canRedo} title={`${shortcut}Shift+Z`} onClick={redo}>
          Redo
        </button>
      </div>
      <div className="ws-group">
        <button type="button" className="ws-button" disabled={busy} title={`${shortcut}S`} onClick={onSave}>
          Save
          {dirty && (
            <span className="ws-dirty" aria-hidden="true" title="Unsaved changes">
              ●
            </span>
          )}
        </button>
        <button type="button" className="ws-button ws-primary" disabled={busy} title={`${shortcut}Enter`} onClick={onDeploy}>
          Deploy
        </button>
        <button type="button" className="ws-button" aria-pressed={testOpen} onClick={onToggleTest}>
          Test
        </button>
        <button type="button" className="ws-button" onClick={download}>
          Export
        </button>
        <VersionsMenu projectId={endpoint.project_id} endpointId={endpoint.id} onRollback={onRollback} />
      </div>
      <StatusTag endpoint={endpoint} dirty={dirty} />
    </div>
  );
}
