import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../api/api-error';
import type { Endpoint } from '../../api/types';
import { useWorkshopCommands } from './commands/use-workshop-commands';
import { FlowCanvas } from './canvas/flow-canvas';
import { ProblemsPanel } from './diagnostics/problems-panel';
import { useLiveDiagnostics } from './diagnostics/use-live-diagnostics';
import { FlowContextProvider, useProjectFlowContext } from './flow-context';
import { elkLayouter } from './layout/elk-worker-layouter';
import { tidyUp } from './layout/tidy-up';
import { ActionPool } from './pool/action-pool';
import { SettingsPanel } from './settings/settings-panel';
import { useWorkshop, useWorkshopStore } from './store/workshop-context';
import { isDirty } from './store/workshop-store';
import { TestPanel } from './test-run/test-panel';
import { useReplay } from './test-run/use-replay';
import { WorkshopToolbar } from './toolbar/workshop-toolbar';
import { LeaveDialog, useLeaveGuard } from './use-leave-guard';
import { useWorkshopShortcuts } from './use-workshop-shortcuts';
import './workshop.css';
import './test-run/test-run.css';

/** The three areas, the toolbar and Problems, around one endpoint's store. */
export function WorkshopEditor({ endpoint }: { endpoint: Endpoint }) {
  return (
    <ReactFlowProvider>
      <EditorLayout endpoint={endpoint} />
    </ReactFlowProvider>
  );
}

function EditorLayout({ endpoint }: { endpoint: Endpoint }) {
  const store = useWorkshopStore();
  const search = useRef<HTMLInputElement>(null);
  const [testOpen, setTestOpen] = useState(false);
  const replay = useReplay(endpoint.project_id, useWorkshop((state) => state.doc.settings));
  // A replayed log opens the panel as soon as it is loaded.
  useEffect(() => {
    if (replay.form) setTestOpen(true);
  }, [replay.form]);
  const { getNodes, fitView } = useReactFlow();
  const commands = useWorkshopCommands(endpoint.project_id, endpoint.id);
  const dirty = useWorkshop(isDirty);
  const blocker = useLeaveGuard(dirty);
  const flowContext = useProjectFlowContext(endpoint.project_id);
  useLiveDiagnostics(flowContext);

  const { save, deploy } = commands;
  const handlers = useMemo(() => ({ save: () => void save(), deploy: () => void deploy() }), [save, deploy]);
  useWorkshopShortcuts(store, handlers, search);

  const tidy = useCallback(async () => {
    const sizes = new Map(getNodes().map((node) => [node.id, node.measured ?? {}]));
    const positions = await tidyUp(store.getState().doc, sizes, elkLayouter());
    store.getState().moveNodes(positions);
    requestAnimationFrame(() => void fitView({ maxZoom: 1.2, duration: 200 }));
  }, [store, getNodes, fitView]);

  return (
    <FlowContextProvider value={flowContext}>
    <div className="workshop">
      <WorkshopToolbar
        endpoint={endpoint}
        busy={commands.busy}
        testOpen={testOpen}
        onSave={handlers.save}
        onDeploy={handlers.deploy}
        onTidy={() => void tidy()}
        onRollback={(version) => void commands.rollback(version)}
        onToggleTest={() => setTestOpen(!testOpen)}
      />
      {replay.error ? (
        <p className="ws-failure" role="alert">
          The logged request could not be opened: {errorMessage(replay.error)}
        </p>
      ) : null}
      {commands.failure && (
        <p className="ws-failure" role="alert">
          {commands.failure}
        </p>
      )}
      <div className="ws-main">
        <ActionPool searchRef={search} />
        <FlowCanvas />
        <div className="ws-side">
          <SettingsPanel />
          {testOpen && (
            <TestPanel key={replay.form ? replay.logId! : ''} projectId={endpoint.project_id} endpointId={endpoint.id} replay={replay.form} onClose={() => setTestOpen(false)} />
          )}
        </div>
      </div>
      <ProblemsPanel />
      {blocker.state === 'blocked' && <LeaveDialog blocker={blocker} />}
    </div>
    </FlowContextProvider>
  );
}
