import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../api/api-error';
import type { FlowResource } from '../../api/flow-calls';
import type { FlowTarget } from '../../api/flow-deploys';
import { useRunSchedule } from '../../api/schedules';
import { useAnnounce } from '../../ui/announcer';
import { KIND_WORDS } from './model/owner-doc';
import { AssistantPanel } from './assistant/assistant-panel';
import { useWorkshopCommands } from './commands/use-workshop-commands';
import { FlowCanvas } from './canvas/flow-canvas';
import { ProblemsPanel } from './diagnostics/problems-panel';
import { useLiveDiagnostics } from './diagnostics/use-live-diagnostics';
import { FlowContextProvider, useProjectFlowContext } from './flow-context';
import { KeptDraftOffer, useKeepDraftOnSessionEnd } from './kept-draft-offer';
import { elkLayouter } from './layout/elk-worker-layouter';
import { tidyUp } from './layout/tidy-up';
import { ActionPool } from './pool/action-pool';
import { SettingsPanel } from './settings/settings-panel';
import { useWorkshop, useWorkshopStore } from './store/workshop-context';
import { isDirty } from './store/workshop-store';
import { FunctionTestPanel } from './test-run/function-test-panel';
import { TestPanel } from './test-run/test-panel';
import { useReplay } from './test-run/use-replay';
import { WorkshopToolbar } from './toolbar/workshop-toolbar';
import type { Placement } from './model/clipboard';
import { LeaveDialog, useLeaveGuard } from '../../ui/leave-guard';
import { useWorkshopShortcuts } from './use-workshop-shortcuts';
import './workshop.css';
import './test-run/test-run.css';

interface EditorProps {
  target: FlowTarget;
  /** The endpoint, function or schedule as last loaded or saved (status, versions, URLs). */
  resource: FlowResource;
}

/** The three areas, the toolbar and Problems, around the store of one endpoint, function or schedule. */
export function WorkshopEditor(props: EditorProps) {
  return (
    <ReactFlowProvider>
      <EditorLayout {...props} />
    </ReactFlowProvider>
  );
}

function EditorLayout({ target, resource }: EditorProps) {
  const store = useWorkshopStore();
  const search = useRef<HTMLInputElement>(null);
  const [testOpen, setTestOpen] = useState(false);
  const assistant = useAssistantOpening();
  const replay = useReplay(target.projectId, useWorkshop((state) => (state.doc.settings.kind === 'endpoint' ? state.doc.settings : null)));
  // A replayed log opens the panel as soon as it is loaded.
  useEffect(() => {
    if (replay.form) setTestOpen(true);
  }, [replay.form]);
  const { getNodes, fitView, getZoom } = useReactFlow();
  // Test takes half the canvas's height: keep every block in sight (zooming out if needed, never in).
  const testShown = useRef(testOpen);
  useEffect(() => {
    if (testShown.current === testOpen) return;
    let frame = requestAnimationFrame(() => {
      // The second frame: the canvas has its new size by then.
      frame = requestAnimationFrame(() => {
        testShown.current = testOpen;
        void fitView({ maxZoom: getZoom(), duration: 200 });
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [testOpen, fitView, getZoom]);
  const commands = useWorkshopCommands(target);
  const runNow = useRunNow(target);
  const dirty = useWorkshop(isDirty);
  const blocker = useLeaveGuard(dirty);
  const flowContext = useProjectFlowContext(target.projectId);
  useLiveDiagnostics(flowContext);
  useKeepDraftOnSessionEnd(target.id);

  const { save, deploy } = commands;
  const pastePlacement = useRef<Placement | null>(null);
  const handlers = useMemo(() => ({ save: () => void save(), deploy: () => void deploy(), pastePlacement: () => pastePlacement.current ?? undefined }), [save, deploy]);
  useWorkshopShortcuts(store, handlers, search);

  /** After the blocks moved (Tidy up) or were replaced (a draft applied): fit the view once every block is drawn and measured. */
  const fitAll = useCallback(() => {
    let frames = 0;
    const fitWhenDrawn = () => {
      const ids = new Set(store.getState().doc.nodes.map((node) => node.id));
      const measured = getNodes().filter((node) => ids.has(node.id) && node.measured?.width).length;
      // A block that never gets measured (hidden) does not hold the view back for long.
      if (measured === ids.size || ++frames > 30) void fitView({ maxZoom: 1.2, duration: 200 });
      else requestAnimationFrame(fitWhenDrawn);
    };
    requestAnimationFrame(fitWhenDrawn);
  }, [store, getNodes, fitView]);
  const tidy = useCallback(async () => {
    const sizes = new Map(getNodes().map((node) => [node.id, node.measured ?? {}]));
    const positions = await tidyUp(store.getState().doc, sizes, elkLayouter());
    store.getState().moveNodes(positions);
    fitAll();
  }, [store, getNodes, fitAll]);

  return (
    <FlowContextProvider value={flowContext}>
    <div className="workshop">
      <WorkshopToolbar
        target={target}
        resource={resource}
        busy={commands.busy || runNow.busy}
        testOpen={testOpen}
        assistantOpen={assistant.open}
        onToggleAssistant={target.kind === 'endpoint' ? assistant.toggle : undefined}
        onSave={handlers.save}
        onDeploy={handlers.deploy}
        onTidy={() => void tidy()}
        onRollback={(version) => void commands.rollback(version)}
        onToggleTest={target.kind === 'schedule' ? undefined : () => setTestOpen(!testOpen)}
        onRunNow={target.kind === 'schedule' ? runNow.run : undefined}
      />
      <KeptDraftOffer endpointId={target.id} />
      {replay.error ? (
        <p className="ws-failure" role="alert">
          The logged request could not be opened: {errorMessage(replay.error)}
        </p>
      ) : null}
      {(commands.failure ?? runNow.failure) && (
        <p className="ws-failure" role="alert">
          {commands.failure ?? runNow.failure}
        </p>
      )}
      <div className={testOpen ? 'ws-main ws-testing' : 'ws-main'}>
        <ActionPool searchRef={search} />
        <FlowCanvas pastePlacement={pastePlacement} />
        <div className="ws-side">
          {assistant.open && target.kind === 'endpoint' && (
            <AssistantPanel projectId={target.projectId} endpointId={target.id} initialPrompt={assistant.prompt} onClose={assistant.toggle} onApplied={fitAll} />
          )}
          <SettingsPanel />
        </div>
        {/* Test has a panel of its own under the canvas and the settings, not a share of the settings column. */}
        {testOpen && target.kind === 'endpoint' && (
          <TestPanel key={replay.form ? replay.logId! : ''} projectId={target.projectId} endpointId={target.id} replay={replay.form} onClose={() => setTestOpen(false)} />
        )}
        {testOpen && target.kind === 'function' && <FunctionTestPanel projectId={target.projectId} functionId={target.id} onClose={() => setTestOpen(false)} />}
      </div>
      <ProblemsPanel />
      {blocker.state === 'blocked' && <LeaveDialog blocker={blocker} what={`This ${KIND_WORDS[target.kind]}`} />}
    </div>
    </FlowContextProvider>
  );
}

/**
 * The assistant panel's state: open when the endpoint list's `Describe it instead` brought a
 * description (in the navigation's state, dropped once read so a reload does not draft again).
 */
function useAssistantOpening() {
  const location = useLocation();
  const navigate = useNavigate();
  const [prompt] = useState(() => (location.state as { describe?: string } | null)?.describe);
  const [open, setOpen] = useState(prompt !== undefined);
  useEffect(() => {
    if (prompt !== undefined) void navigate(location.pathname + location.search, { replace: true, state: null });
    // Once, for the state the page opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return { open, prompt, toggle: () => setOpen((current) => !current) };
}

/**
 * A schedule's `Run now`: the live version once, at once (a run with trigger Schedule in Logs);
 * with unsaved or undeployed changes it still runs what is live, and says so.
 */
function useRunNow(target: FlowTarget) {
  const run = useRunSchedule(target.projectId);
  const announce = useAnnounce();
  const [failure, setFailure] = useState<string | null>(null);
  return {
    busy: run.isPending,
    failure,
    run: () =>
      run.mutate(target.id, {
        onSuccess: () => {
          setFailure(null);
          announce('Running the live version now: its run shows in Logs (trigger Schedule)');
        },
        onError: (error) => setFailure(`Run now refused: ${errorMessage(error)}`),
      }),
  };
}
