import { clearOfOverlays, type Rect } from './clear-of-overlays';

const rect = (left: number, top: number, width: number, height: number): Rect => ({ left, top, right: left + width, bottom: top + height });
const canvas = rect(0, 0, 800, 600);
const minimap = rect(635, 485, 150, 100);

describe('clearOfOverlays', () => {
  it('leaves a block that no overlay covers where it was dropped', () => {
    expect(clearOfOverlays(rect(100, 100, 180, 48), [minimap], canvas)).toEqual(rect(100, 100, 180, 48));
  });

  it('moves a block dropped on the minimap the shortest way off it, inside the canvas', () => {
    const placed = clearOfOverlays(rect(650, 540, 180, 48), [minimap], canvas);
    expect(placed.bottom <= minimap.top || placed.right <= minimap.left).toBe(true);
    expect(placed.right).toBeLessThanOrEqual(canvas.right);
    expect(placed).toEqual(rect(620, 429, 180, 48));
  });

  it('keeps a block dropped half outside the canvas inside it', () => {
    expect(clearOfOverlays(rect(-50, 20, 180, 48), [], canvas)).toEqual(rect(0, 20, 180, 48));
  });

  it('clears two overlays side by side at once', () => {
    const button = rect(635, 560, 150, 30);
    const placed = clearOfOverlays(rect(640, 500, 180, 48), [minimap, button], canvas);
    expect([minimap, button].some((overlay) => placed.left < overlay.right && overlay.left < placed.right && placed.top < overlay.bottom && overlay.top < placed.bottom)).toBe(false);
  });
});
