/** What the pointer is over on the canvas: the topmost block or connection at a point of the window. */
export type CanvasHit = { kind: 'node' | 'edge'; id: string } | null;

export function canvasItemAt(x: number, y: number): CanvasHit {
  for (const element of document.elementsFromPoint(x, y)) {
    const item = element.closest('.react-flow__node, .react-flow__edge');
    const id = item?.getAttribute('data-id');
    if (item && id) return { kind: item.classList.contains('react-flow__node') ? 'node' : 'edge', id };
  }
  return null;
}
