import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { catalogueEntry } from '../model/block-fields';
import type { Position, WorkshopDoc } from '../model/workshop-document';

/** What lays the graph out: ELK in a web worker in the browser, the bundled ELK in tests. */
export interface Layouter {
  layout(graph: ElkNode): Promise<ElkNode>;
}

export interface Size {
  width: number;
  height: number;
}

/** The size of a block not yet measured (about a block with a short label). */
export const DEFAULT_SIZE: Size = { width: 180, height: 48 };

const LAYOUT_OPTIONS = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.spacing.nodeNode': '40',
  'elk.layered.spacing.nodeNodeBetweenLayers': '80',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.edgeRouting': 'SPLINES',
};

/**
 * A layered left-to-right layout. A condition's handles are ports in a fixed order on its right
 * side, `true` above `false`, so the true branch stays above the false one.
 */
export async function tidyUp(doc: WorkshopDoc, sizes: ReadonlyMap<string, Partial<Size>>, layouter: Layouter): Promise<Record<string, Position>> {
  const children: ElkNode[] = doc.nodes.map((node) => {
    const size = sizes.get(node.id);
    const branch = catalogueEntry(node.type)?.flow === 'branch';
    return {
      id: node.id,
      width: size?.width ?? DEFAULT_SIZE.width,
      height: size?.height ?? DEFAULT_SIZE.height,
      ...(branch && {
        layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' },
        ports: ['true', 'false'].map((handle, index) => ({
          id: `${node.id}:${handle}`,
          width: 1,
          height: 1,
          layoutOptions: { 'elk.port.side': 'EAST', 'elk.port.index': String(index) },
        })),
      }),
    };
  });
  const known = new Set(doc.nodes.map((node) => node.id));
  const edges: ElkExtendedEdge[] = doc.edges
    .filter((edge) => known.has(edge.source) && known.has(edge.target))
    .map((edge) => ({
      id: edge.id,
      sources: [edge.sourceHandle === 'true' || edge.sourceHandle === 'false' ? `${edge.source}:${edge.sourceHandle}` : edge.source],
      targets: [edge.target],
    }));
  const laid = await layouter.layout({ id: 'root', layoutOptions: LAYOUT_OPTIONS, children, edges });
  return Object.fromEntries((laid.children ?? []).map((child) => [child.id, { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) }]));
}
