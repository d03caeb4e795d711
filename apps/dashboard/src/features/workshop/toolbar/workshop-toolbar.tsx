import { useReactFlow } from '@xyflow/react';
import type { FlowResource } from '../../../api/flow-calls';
import type { FlowTarget } from '../../../api/flow-deploys';
import type { Endpoint } from '../../../api/types';
import { exportDocumentOf } from '../model/owner-doc';
import { useHistoryAvailability, useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { isDirty } from '../store/workshop-store';
import { EndpointUrls } from './endpoint-urls';
import { StatusTag } from './status-tag';
import { VersionsMenu } from './versions-menu';

interface ToolbarProps {
  target: FlowTarget;
  resource: FlowResource;
  busy: boolean;
  testOpen: boolean;
  assistantOpen: boolean;
  onSave(): void;
  onDeploy(): void;
  onTidy(): void;
  onRollback(version: number): void;
  /** Absent: the kind has no test runs (a schedule: `Run now` instead). */
  onToggleTest?: () => void;
  onRunNow?: () => void;
  /** Absent: the kind has no assistant (functions and schedules). */
  onToggleAssistant?: () => void;
}

const shortcut = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl+';

/** Canvas controls, history, Save / Deploy / Test, the live status and the versions. */
export function WorkshopToolbar({ target, resource, busy, testOpen, assistantOpen, onSave, onDeploy, onTidy, onRollback, onToggleTest, onRunNow, onToggleAssistant }: ToolbarProps) {
  const { zoomIn, zoomOut, fitView } = useReactFlow();
  const store = useWorkshopStore();
  const { canUndo, canRedo } = useHistoryAvailability();
  const dirty = useWorkshop(isDirty);
  const undo = useWorkshop((state) => state.undo);
  const redo = useWorkshop((state) => state.redo);

  const exportable = useWorkshop((state) => exportDocumentOf(state.saved) !== null);
  const download = () => {
    const url = URL.createObjectURL(new Blob([exportDocumentOf(store.getState().doc) ?? ''], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${resource.name.replace(/[^\w.-]+/g, '-').toLowerCase() || target.kind}.flowgate.json`;
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
        {onToggleTest && (
          <button type="button" className="ws-button" aria-pressed={testOpen} onClick={onToggleTest}>
            Test
          </button>
        )}
        {onRunNow && (
          <button type="button" className="ws-button" disabled={busy} title="Runs the live version once, now" onClick={onRunNow}>
            Run now
          </button>
        )}
        {exportable && (
          <button type="button" className="ws-button" onClick={download}>
            Export
          </button>
        )}
        <VersionsMenu target={target} onRollback={onRollback} />
      </div>
      {onToggleAssistant && (
        <div className="ws-group">
          <button type="button" className="ws-button" aria-pressed={assistantOpen} onClick={onToggleAssistant}>
            Ask the assistant
          </button>
        </div>
      )}
      <StatusTag resource={resource} dirty={dirty} />
      {target.kind === 'endpoint' && <EndpointUrls endpoint={resource as Endpoint} />}
    </div>
  );
}
