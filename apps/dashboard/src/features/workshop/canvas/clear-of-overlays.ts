/** A rectangle in window pixels. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Room kept between a dropped block and an overlay. */
const MARGIN = 8;

const intersects = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const inside = (a: Rect, bounds: Rect) => a.left >= bounds.left && a.top >= bounds.top && a.right <= bounds.right && a.bottom <= bounds.bottom;
const shift = (a: Rect, dx: number, dy: number): Rect => ({ left: a.left + dx, top: a.top + dy, right: a.right + dx, bottom: a.bottom + dy });

/**
 * Where a block dropped at `box` goes so that no overlay of the canvas (the minimap, its button)
 * covers it and it stays inside the canvas: the nearest such place, or `box` kept inside the canvas
 * when there is none.
 */
export function clearOfOverlays(box: Rect, overlays: readonly Rect[], bounds: Rect): Rect {
  const dx = Math.max(0, bounds.left - box.left) + Math.min(0, bounds.right - box.right);
  const dy = Math.max(0, bounds.top - box.top) + Math.min(0, bounds.bottom - box.bottom);
  const kept = shift(box, dx, dy);
  const candidates = [kept];
  for (const overlay of overlays) {
    candidates.push(
      shift(kept, overlay.left - MARGIN - kept.right, 0),
      shift(kept, overlay.right + MARGIN - kept.left, 0),
      shift(kept, 0, overlay.top - MARGIN - kept.bottom),
      shift(kept, 0, overlay.bottom + MARGIN - kept.top),
    );
  }
  const distance = (rect: Rect) => Math.abs(rect.left - kept.left) + Math.abs(rect.top - kept.top);
  const clear = candidates.filter((rect) => inside(rect, bounds) && overlays.every((overlay) => !intersects(rect, overlay)));
  return clear.sort((a, b) => distance(a) - distance(b))[0] ?? kept;
}
