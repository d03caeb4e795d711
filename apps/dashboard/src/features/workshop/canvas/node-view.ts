import type { Diagnostic, FlowEdge, FlowNode } from '@flowgate/flow-engine';
import type { Edge, Node } from '@xyflow/react';
import { catalogueEntry } from '../model/block-fields';
import { referenceNameOf } from '../model/fresh-names';
import { START_TYPE, type Position, type SettingsDraft } from '../model/workshop-document';
import { startTitle } from '../model/owner-doc';

export interface BlockNodeData extends Record<string, unknown> {
  title: string;
  refName: string | null;
  category: string;
  flow: 'next' | 'branch' | 'end' | 'loop';
  isStart: boolean;
  /** Draws the red `error` handle: the block can fail on its own. */
  canFail: boolean;
  /** How many loop bodies the block is in (0: none); the canvas tints it. */
  loopDepth: number;
  /** Error (or else warning) messages about this block, for its mark. */
  problems: string[];
  severity: 'error' | 'warning' | null;
}

export type BlockNodeType = Node<BlockNodeData, 'block'>;

interface Inputs {
  node: FlowNode;
  settings: SettingsDraft;
  selected: boolean;
  position: Position;
  measured: { width?: number; height?: number } | undefined;
  problems: readonly Diagnostic[];
  loopDepth: number;
}

/** The canvas node of a block; the label names it ("Manipulate Text · loud", "GET /hello"). */
export function toCanvasNode({ node, settings, selected, position, measured, problems, loopDepth }: Inputs): BlockNodeType {
  const isStart = node.type === START_TYPE;
  const entry = catalogueEntry(node.type);
  const refName = isStart ? null : referenceNameOf(node);
  const label = entry?.label ?? node.type;
  const title = isStart ? startTitle(settings) : label;
  const errors = problems.filter((problem) => problem.severity === 'error');
  const shown = errors.length > 0 ? errors : problems;
  return {
    id: node.id,
    type: 'block',
    position,
    selected,
    measured,
    deletable: !isStart,
    ariaLabel: isStart ? title : refName ? `${label} · ${refName}` : label,
    domAttributes: shown.length > 0 ? { 'aria-describedby': `ws-node-problems-${node.id}` } : undefined,
    data: {
      title,
      refName,
      category: entry?.category ?? 'data',
      flow: entry?.flow ?? 'next',
      isStart,
      canFail: entry?.canFail((node.config ?? {}) as Record<string, unknown>) ?? false,
      loopDepth,
      problems: shown.map((problem) => problem.message),
      severity: errors.length > 0 ? 'error' : problems.length > 0 ? 'warning' : null,
    },
  };
}

/** Handles with a look of their own: a Condition's branches, a For Each's body and exit, a failure. */
const NAMED_HANDLES = new Set(['true', 'false', 'each', 'done', 'error']);

export function toCanvasEdge(edge: FlowEdge, selected: boolean, escapes = false): Edge {
  const handle = edge.sourceHandle && NAMED_HANDLES.has(edge.sourceHandle) ? edge.sourceHandle : null;
  const classes = [handle ? `ws-edge-${handle}` : '', escapes ? 'ws-edge-escape' : ''].filter(Boolean).join(' ');
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle: handle,
    selected,
    className: classes || undefined,
    ...(escapes ? { label: 'leaves the loop', ariaLabel: 'Connection leaves the loop body' } : {}),
  };
}
