import {
  Background,
  ReactFlow,
  useConnection,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type OnConnectEnd,
  type OnDelete,
} from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type MutableRefObject } from 'react';
import { BLOCK_DRAG_TYPE } from '../pool/pool-groups';
import { useTraceStore } from '../test-run/trace-store';
import { useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { DEFAULT_SIZE } from '../layout/tidy-up';
import { BlockNode } from './block-node';
import { canvasItemAt } from './canvas-hit';
import { FirstRunHint } from './first-run-hint';
import { MinimapWithToggle } from './minimap-toggle';
import { useCanvasNodes } from './use-canvas-nodes';
import { usePlacement } from './use-placement';
import { useReveal } from './use-reveal';
import type { Placement } from '../model/clipboard';
import { loopBodies } from '../model/loop-bodies';
import { toCanvasEdge, type BlockNodeType } from './node-view';

const nodeTypes = { block: BlockNode };
const DELETE_KEYS = ['Delete', 'Backspace'];
const MULTI_SELECT_KEYS = ['Meta', 'Control', 'Shift'];
const OPEN_ON_FIRST_BLOCKS = 12;

/**
 * The flow on React Flow: the document is the store's; the canvas reports changes as edits.
 * `pastePlacement` is given where pasted blocks go (at the pointer while it is over the canvas).
 */
export function FlowCanvas({ pastePlacement }: { pastePlacement: MutableRefObject<Placement | null> }) {
  const store = useWorkshopStore();
  const edges = useWorkshop((state) => state.doc.edges);
  const selectedEdgeIds = useWorkshop((state) => state.selectedEdgeIds);
  const measured = useRef(new Map<string, { width?: number; height?: number }>());
  const [measureTick, setMeasureTick] = useState(0);
  const nodes = useCanvasNodes(measured.current, measureTick);
  const connecting = useConnection((connection) => connection.inProgress);
  const container = useRef<HTMLDivElement>(null);
  useReveal(container);
  const { placeAt, pasteAtPointer, pointerHandlers } = usePlacement(container);
  useEffect(() => {
    pastePlacement.current = pasteAtPointer;
  }, [pastePlacement, pasteAtPointer]);
  // A large flow opens on its first blocks, readable; Fit view shows all of it.
  const [initialFit] = useState(() => {
    const first = store.getState().doc.nodes.slice(0, OPEN_ON_FIRST_BLOCKS).map((node) => ({ id: node.id }));
    return { maxZoom: 1.1, nodes: store.getState().doc.nodes.length > OPEN_ON_FIRST_BLOCKS ? first : undefined };
  });

  const takenEdges = useTraceStore((state) => state.takenEdges);
  const docNodes = useWorkshop((state) => state.doc.nodes);
  const escapes = useMemo(() => loopBodies(docNodes, edges).escapes, [docNodes, edges]);
  const canvasEdges = useMemo(() => {
    const selected = new Set(selectedEdgeIds);
    return edges.map((edge) => {
      const canvasEdge = toCanvasEdge(edge, selected.has(edge.id), escapes.has(edge.id));
      // The path the last test run took.
      return takenEdges.has(edge.id) ? { ...canvasEdge, className: `${canvasEdge.className ?? ''} tr-taken`.trim() } : canvasEdge;
    });
  }, [edges, selectedEdgeIds, takenEdges, escapes]);

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

  // Released anywhere on a block (not only on its small input handle): connect to that block, as n8n does.
  const onConnectEnd: OnConnectEnd = useCallback(
    (event, connection) => {
      if (connection.isValid || !connection.fromNode || !connection.fromHandle) return;
      const point = 'changedTouches' in event ? event.changedTouches[0] : event;
      const hit = point ? canvasItemAt(point.clientX, point.clientY) : null;
      if (hit?.kind !== 'node' || hit.id === connection.fromNode.id) return;
      const from = connection.fromNode.id;
      if (connection.fromHandle.type === 'source') store.getState().connect(from, hit.id, connection.fromHandle.id ?? null);
      else store.getState().connect(hit.id, from);
    },
    [store],
  );

  // A block dropped from the pool: centred on the pointer, never under the minimap or its button,
  // and inserted into the connection it was dropped on.
  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(BLOCK_DRAG_TYPE);
      if (!type) return;
      event.preventDefault();
      const hit = canvasItemAt(event.clientX, event.clientY);
      store.getState().addBlock(type, { position: placeAt({ x: event.clientX, y: event.clientY }, DEFAULT_SIZE), onEdge: hit?.kind === 'edge' ? hit.id : undefined });
    },
    [store, placeAt],
  );

  return (
    <div className={connecting ? 'ws-canvas ws-connecting' : 'ws-canvas'} role="region" aria-label="Canvas" ref={container} {...pointerHandlers} onDragOver={(event) => event.dataTransfer.types.includes(BLOCK_DRAG_TYPE) && event.preventDefault()} onDrop={onDrop}>
      <ReactFlow<BlockNodeType>
        nodes={nodes}
        edges={canvasEdges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
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
        <MinimapWithToggle />
        <FirstRunHint />
      </ReactFlow>
    </div>
  );
}
