import { useReactFlow } from '@xyflow/react';
import { useCallback, useMemo, useRef, type RefObject } from 'react';
import { DEFAULT_SIZE } from '../layout/tidy-up';
import type { Placement } from '../model/clipboard';
import type { Position } from '../model/workshop-document';
import { clearOfOverlays } from './clear-of-overlays';

type Point = { x: number; y: number };

/**
 * Where blocks go on the canvas: centred on a point of the window, clear of the canvas's overlays
 * (the minimap, its button, the first-run hint) and inside it. `pasteAtPointer` places pasted and
 * duplicated blocks at the pointer while it is over the canvas (tracked by `pointerHandlers`).
 */
export function usePlacement(container: RefObject<HTMLDivElement | null>) {
  const { screenToFlowPosition, getZoom } = useReactFlow();
  const pointer = useRef<Point | null>(null);

  /** The flow position of the top-left corner of a box of `size` (flow units) centred on `point`. */
  const placeAt = useCallback(
    (point: Point, size: { width: number; height: number }): Position => {
      const zoom = getZoom();
      const [width, height] = [size.width * zoom, size.height * zoom];
      const box = { left: point.x - width / 2, top: point.y - height / 2, right: point.x + width / 2, bottom: point.y + height / 2 };
      const canvas = container.current;
      if (!canvas) return screenToFlowPosition({ x: box.left, y: box.top });
      const overlays = [...canvas.querySelectorAll('.react-flow__panel')].map((panel) => panel.getBoundingClientRect());
      const placed = clearOfOverlays(box, overlays, canvas.getBoundingClientRect());
      return screenToFlowPosition({ x: placed.left, y: placed.top });
    },
    [container, getZoom, screenToFlowPosition],
  );

  const pasteAtPointer: Placement = useCallback(
    (span) => (pointer.current === null ? null : placeAt(pointer.current, { width: span.width + DEFAULT_SIZE.width, height: span.height + DEFAULT_SIZE.height })),
    [placeAt],
  );

  const pointerHandlers = useMemo(
    () => ({
      onPointerMove: (event: { clientX: number; clientY: number }) => {
        pointer.current = { x: event.clientX, y: event.clientY };
      },
      onPointerLeave: () => {
        pointer.current = null;
      },
    }),
    [],
  );
  return { placeAt, pasteAtPointer, pointerHandlers };
}
