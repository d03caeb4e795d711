import type { Diagnostic, FlowNode } from '@flowgate/flow-engine';
import { useMemo, useRef } from 'react';
import { mergeProblems } from '../diagnostics/diagnostic-lookup';
import { startTitle } from '../model/owner-doc';
import { useWorkshop } from '../store/workshop-context';
import { loopBodies } from '../model/loop-bodies';
import { toCanvasNode, type BlockNodeType } from './node-view';

interface Cached {
  node: FlowNode;
  selected: boolean;
  x: number;
  y: number;
  measured: unknown;
  problems: string;
  title: string;
  loopDepth: number;
  canvasNode: BlockNodeType;
}

const NO_PROBLEMS: Diagnostic[] = [];

/**
 * The canvas nodes, rebuilt only for blocks that changed: React Flow keeps a node's internals
 * (measured size, handles) while it gets the same object, which keeps a 200-block drag cheap.
 */
export function useCanvasNodes(measured: ReadonlyMap<string, { width?: number; height?: number }>, measureTick: number): BlockNodeType[] {
  const nodes = useWorkshop((state) => state.doc.nodes);
  const edges = useWorkshop((state) => state.doc.edges);
  const settings = useWorkshop((state) => state.doc.settings);
  const selectedIds = useWorkshop((state) => state.selectedNodeIds);
  const dragging = useWorkshop((state) => state.dragging);
  const diagnostics = useWorkshop((state) => state.diagnostics);
  const serverProblems = useWorkshop((state) => state.serverProblems);
  const cache = useRef(new Map<string, Cached>());

  return useMemo(() => {
    void measureTick;
    const selected = new Set(selectedIds);
    const byNode = new Map<string, Diagnostic[]>();
    for (const problem of mergeProblems(diagnostics, serverProblems)) {
      // Base settings problems belong to the base settings (start) block.
      const id = problem.node_id ?? nodes.find((node) => node.type === 'start')?.id ?? '';
      byNode.set(id, [...(byNode.get(id) ?? []), problem]);
    }
    const depths = loopBodies(nodes, edges).depth;
    const next = new Map<string, Cached>();
    const result = nodes.map((node) => {
      const position = dragging?.[node.id] ?? node.position;
      const problems = byNode.get(node.id) ?? NO_PROBLEMS;
      const problemKey = problems.map((problem) => problem.message).join('\n');
      const title = node.type === 'start' ? startTitle(settings) : '';
      const size = measured.get(node.id);
      const loopDepth = depths.get(node.id) ?? 0;
      const previous = cache.current.get(node.id);
      const reusable =
        previous &&
        previous.node === node &&
        previous.selected === selected.has(node.id) &&
        previous.x === position.x &&
        previous.y === position.y &&
        previous.measured === size &&
        previous.problems === problemKey &&
        previous.title === title &&
        previous.loopDepth === loopDepth;
      const entry: Cached = reusable
        ? previous
        : {
            node,
            selected: selected.has(node.id),
            x: position.x,
            y: position.y,
            measured: size,
            problems: problemKey,
            title,
            loopDepth,
            canvasNode: toCanvasNode({ node, settings, selected: selected.has(node.id), position, measured: size, problems, loopDepth }),
          };
      next.set(node.id, entry);
      return entry.canvasNode;
    });
    cache.current = next;
    return result;
  }, [nodes, edges, settings, selectedIds, dragging, diagnostics, serverProblems, measured, measureTick]);
}
