import type { Diagnostic, FlowEdge, FlowNode } from '@flowgate/flow-engine';
import type { Edge, Node } from '@xyflow/react';
import { catalogueEntry } from '../model/block-fields';
import { referenceNameOf } from '../model/fresh-names';
import { START_TYPE, type Position, type SettingsDraft } from '../model/workshop-document';

export interface BlockNodeData extends Record<string, unknown> {
  title: string;
  refName: string | null;
  category: string;
  flow: 'next' | 'branch' | 'end';
  isStart: boolean;
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
}

/** The canvas node of a block; the label names it ("Manipulate Text · loud", "GET /hello"). */
export function toCanvasNode({ node, settings, selected, position, measured, problems }: Inputs): BlockNodeType {
  const isStart = node.type === START_TYPE;
  const entry = catalogueEntry(node.type);
  const refName = isStart ? null : referenceNameOf(node);
  const label = entry?.label ?? node.type;
  const title = isStart ? `${settings.method} ${settings.path}` : label;
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
      problems: shown.map((problem) => problem.message),
      severity: errors.length > 0 ? 'error' : problems.length > 0 ? 'warning' : null,
    },
  };
}

export function toCanvasEdge(edge: FlowEdge, selected: boolean): Edge {
  const branch = edge.sourceHandle === 'true' || edge.sourceHandle === 'false' ? edge.sourceHandle : null;
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle: branch,
    selected,
    className: branch ? `ws-edge-${branch}` : undefined,
  };
}
