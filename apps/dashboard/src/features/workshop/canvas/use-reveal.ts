import { useReactFlow } from '@xyflow/react';
import { useEffect, type RefObject } from 'react';
import { useWorkshop } from '../store/workshop-context';
import { DEFAULT_SIZE } from '../layout/tidy-up';

/** Pans (keeping the zoom) so a block just added, pasted or named by a problem is in view. */
export function useReveal(container: RefObject<HTMLElement | null>): void {
  const reveal = useWorkshop((state) => state.reveal);
  const { getInternalNode, flowToScreenPosition, setCenter, getZoom } = useReactFlow();
  useEffect(() => {
    const bounds = container.current?.getBoundingClientRect();
    const node = reveal ? getInternalNode(reveal.nodeId) : undefined;
    if (!reveal || !bounds || !node) return;
    const width = node.measured.width ?? DEFAULT_SIZE.width;
    const height = node.measured.height ?? DEFAULT_SIZE.height;
    const { x, y } = node.internals.positionAbsolute;
    const topLeft = flowToScreenPosition({ x, y });
    const bottomRight = flowToScreenPosition({ x: x + width, y: y + height });
    const inView = topLeft.x >= bounds.left && topLeft.y >= bounds.top && bottomRight.x <= bounds.right && bottomRight.y <= bounds.bottom;
    if (!inView) void setCenter(x + width / 2, y + height / 2, { zoom: getZoom(), duration: 200 });
  }, [reveal, container, getInternalNode, flowToScreenPosition, setCenter, getZoom]);
}
