import { useReactFlow, type InternalNode } from '@xyflow/react';
import { useEffect, type RefObject } from 'react';
import { useWorkshop } from '../store/workshop-context';
import { DEFAULT_SIZE } from '../layout/tidy-up';

/** Below this zoom block titles are hard to read: rather pan to the block alone. */
const MIN_CONTEXT_ZOOM = 0.5;
/** Room left around the blocks when both are fitted (a fraction of the canvas). */
const PADDING = 0.12;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const boxOf = (node: InternalNode): Box => ({
  ...node.internals.positionAbsolute,
  width: node.measured.width ?? DEFAULT_SIZE.width,
  height: node.measured.height ?? DEFAULT_SIZE.height,
});

/**
 * Brings a block just added, pasted or named by a problem into view. When it or the start block
 * is out of view, both are fitted (never zooming in), so the new block is seen where it joins
 * the flow; when they are too far apart to read together, it pans the block to the canvas's
 * right-hand side, with the blocks leading to it beside it.
 */
export function useReveal(container: RefObject<HTMLElement | null>): void {
  const reveal = useWorkshop((state) => state.reveal);
  const { getInternalNode, flowToScreenPosition, setCenter, getZoom, fitView } = useReactFlow();
  useEffect(() => {
    const bounds = container.current?.getBoundingClientRect();
    const node = reveal ? getInternalNode(reveal.nodeId) : undefined;
    if (!reveal || !bounds || !node) return;
    const inView = (box: Box) => {
      const topLeft = flowToScreenPosition({ x: box.x, y: box.y });
      const bottomRight = flowToScreenPosition({ x: box.x + box.width, y: box.y + box.height });
      return topLeft.x >= bounds.left && topLeft.y >= bounds.top && bottomRight.x <= bounds.right && bottomRight.y <= bounds.bottom;
    };
    const target = boxOf(node);
    const startNode = getInternalNode('start');
    const start = startNode && startNode !== node ? boxOf(startNode) : null;
    if (inView(target) && (!start || inView(start))) return;

    if (start) {
      const width = Math.max(target.x + target.width, start.x + start.width) - Math.min(target.x, start.x);
      const height = Math.max(target.y + target.height, start.y + start.height) - Math.min(target.y, start.y);
      const fits = Math.min(bounds.width / width, bounds.height / height) * (1 - 2 * PADDING);
      if (fits >= MIN_CONTEXT_ZOOM) {
        void fitView({ nodes: [{ id: 'start' }, { id: reveal.nodeId }], maxZoom: getZoom(), minZoom: MIN_CONTEXT_ZOOM, padding: PADDING, duration: 200 });
        return;
      }
    }
    // Too far apart: the block goes to the side it joins from, so the blocks before it stay in view.
    const zoom = getZoom();
    const joinsFromLeft = start !== null && start.x < target.x;
    const offset = Math.max(0, bounds.width / 2 - bounds.width * PADDING) / zoom - target.width / 2;
    const centerX = target.x + target.width / 2 + (joinsFromLeft ? -offset : 0);
    void setCenter(centerX, target.y + target.height / 2, { zoom, duration: 200 });
  }, [reveal, container, getInternalNode, flowToScreenPosition, setCenter, getZoom, fitView]);
}
