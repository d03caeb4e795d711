import {
  Background,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type OnDelete,
} from '@xyflow/react';
import { useCallback, useMemo, useRef, useState, type DragEvent } from 'react';
import { BLOCK_DRAG_TYPE } from '../pool/pool-groups';
import { useTraceStore } from '../test-run/trace-store';
import { useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { BlockNode } from './block-node';
import { useCanvasNodes } from './use-canvas-nodes';
import { useReveal } from './use-reveal';
import { toCanvasEdge, type BlockNodeType } from './node-view';

const nodeTypes = { block: BlockNode };
const DELETE_KEYS = ['Delete', 'Backspace'];
const MULTI_SELECT_KEYS = ['Meta', 'Control', 'Shift'];
const OPEN_ON_FIRST_BLOCKS = 12;

/** The flow on React Flow: the document is the store's; the canvas reports changes as edits. */
export function FlowCanvas() {
  const store = useWorkshopStore();
  const edges = useWorkshop((state) => state.doc.edges);
  const selectedEdgeIds = useWorkshop((state) => state.selectedEdgeIds);
  const measured = useRef(new Map<string, { width?: number; height?: number }>());
  const [measureTick, setMeasureTick] = useState(0);
  const nodes = useCanvasNodes(measured.current, measureTick);
  const { screenToFlowPosition } = useReactFlow();
  const container = useRef<HTMLDivElement>(null);
  useReveal(container);
  // A large flow opens on its first blocks, readable; Fit view shows all of it.
  const [initialFit] = useState(() => {
    const first = store.getState().doc.nodes.slice(0, OPEN_ON_FIRST_BLOCKS).map((node) => ({ id: node.id }));
    return { maxZoom: 1.1, nodes: store.getState().doc.nodes.length > OPEN_ON_FIRST_BLOCKS ? first : undefined };
  });

  const takenEdges = useTraceStore((state) => state.takenEdges);
  const canvasEdges = useMemo(() => {
    const selected = new Set(selectedEdgeIds);
    return edges.map((edge) => {
      const canvasEdge = toCanvasEdge(edge, selected.has(edge.id));
      // The path the last test run took.
      return takenEdges.has(edge.id) ? { ...canvasEdge, className: `${canvasEdge.className ?? ''} tr-taken`.trim() } : canvasEdge;
    });
  }, [edges, selectedEdgeIds, takenEdges]);

  const onNodesChange = useCallback(
    (changes: NodeChange<BlockNodeType>[]) => {
      const state = store.getState();
      let selection: Set<string> | null = null;
      let measuredChanged = false;
      const moved: Record<string, { x: number; y: number }> = {};
      let dragEnded = false;
      for (const change of changes) {
        if (change.type === 'dimensions' && change.dimensions) {
          measured.current.set(change.id, change.dimensions);
          measuredChanged = true;
        } else if (change.type === 'position') {
          if (change.position && change.dragging) moved[change.id] = change.position;
          if (change.dragging === false) dragEnded = true;
        } else if (change.type === 'select') {
          selection ??= new Set(state.selectedNodeIds);
          if (change.selected) selection.add(change.id);
          else selection.delete(change.id);
        }
      }
      if (Object.keys(moved).length > 0) state.drag(moved);
      if (dragEnded) state.endDrag();
      if (selection) state.select([...selection], state.selectedEdgeIds);
      if (measuredChanged) setMeasureTick((tick) => tick + 1);
    },
    [store],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const state = store.getState();
      const selection = new Set(state.selectedEdgeIds);
      let touched = false;
      for (const change of changes) {
        if (change.type !== 'select') continue;
        touched = true;
        if (change.selected) selection.add(change.id);
        else selection.delete(change.id);
      }
      if (touched) state.select(state.selectedNodeIds, [...selection]);
    },
    [store],
  );

  const onConnect = useCallback((connection: Connection) => store.getState().connect(connection.source, connection.target, connection.sourceHandle ?? null), [store]);
  const onDelete: OnDelete<BlockNodeType, Edge> = useCallback(
    ({ nodes: removed, edges: removedEdges }) => store.getState().deleteElements(removed.map((node) => node.id), removedEdges.map((edge) => edge.id)),
    [store],
  );

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(BLOCK_DRAG_TYPE);
      if (!type) return;
      event.preventDefault();
      store.getState().addBlock(type, { position: screenToFlowPosition({ x: event.clientX, y: event.clientY }) });
    },
    [store, screenToFlowPosition],
  );

  return (
    <div className="ws-canvas" role="region" aria-label="Canvas" ref={container} onDragOver={(event) => event.dataTransfer.types.includes(BLOCK_DRAG_TYPE) && event.preventDefault()} onDrop={onDrop}>
      <ReactFlow<BlockNodeType>
        nodes={nodes}
        edges={canvasEdges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onDelete={onDelete}
        deleteKeyCode={DELETE_KEYS}
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        onPaneClick={() => store.getState().select([])}
        fitView
        fitViewOptions={initialFit}
        // Blocks outside the viewport are not in the DOM: a 200-block flow drags like a small one.
        onlyRenderVisibleElements
        minZoom={0.1}
        proOptions={{ hideAttribution: true }}
        ariaLabelConfig={{ 'node.a11yDescription.default': 'Press Enter or Space to select this block; Delete removes it.' }}
      >
        <Background gap={20} />
        <MiniMap pannable zoomable ariaLabel="Minimap" style={{ width: 150, height: 100 }} />
      </ReactFlow>
    </div>
  );
}
