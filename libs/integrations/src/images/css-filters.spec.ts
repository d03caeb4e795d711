import type { ImageOperation } from '@flowgate/flow-engine';
import { applyCssFilter, type RgbaBitmap } from './css-filters';

/**
 * Expected values are computed here straight from the W3C Filter Effects Level 1 text
 * ("Supported Filter Functions" and the feColorMatrix / feComponentTransfer definitions),
 * one pixel at a time, independently of the implementation's lookup tables and helpers.
 */
const clamp = (v: number) => Math.min(1, Math.max(0, v));
const byte = (v: number) => Math.round(clamp(v) * 255);

function matrixRow(values: number[], [r, g, b]: number[]): number[] {
  return [0, 1, 2].map((row) => values[row * 3] * r + values[row * 3 + 1] * g + values[row * 3 + 2] * b);
}

function expected(operation: ImageOperation, value: number, rgb: number[]): number[] {
  const c = rgb.map((v) => v / 255);
  const amount = value / 100;
  switch (operation) {
    case 'brightness': // feFuncX type="linear" slope="[amount]"
      return c.map((v) => byte(v * amount));
    case 'contrast': // type="linear" slope="[amount]" intercept="-(0.5 * [amount]) + 0.5"
      return c.map((v) => byte(v * amount + (-(0.5 * amount) + 0.5)));
    case 'invert': {
      // type="table" tableValues="[amount] (1 - [amount])": v0 + C·(v1 − v0)
      const a = Math.min(1, amount);
      return c.map((v) => byte(a + v * (1 - a - a)));
    }
    case 'grayscale': {
      const k = 1 - Math.min(1, amount);
      const m = [
        0.2126 + 0.7874 * k, 0.7152 - 0.7152 * k, 0.0722 - 0.0722 * k,
        0.2126 - 0.2126 * k, 0.7152 + 0.2848 * k, 0.0722 - 0.0722 * k,
        0.2126 - 0.2126 * k, 0.7152 - 0.7152 * k, 0.0722 + 0.9278 * k,
      ];
      return matrixRow(m, c).map(byte);
    }
    case 'saturation': {
      const s = amount;
      const m = [
        0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s,
        0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s,
        0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s,
      ];
      return matrixRow(m, c).map(byte);
    }
    case 'hue_rotate': {
      const cos = Math.cos((value * Math.PI) / 180);
      const sin = Math.sin((value * Math.PI) / 180);
      const base = [0.213, 0.715, 0.072, 0.213, 0.715, 0.072, 0.213, 0.715, 0.072];
      const withCos = [0.787, -0.715, -0.072, -0.213, 0.285, -0.072, -0.213, -0.715, 0.928];
      const withSin = [-0.213, -0.715, 0.928, 0.143, 0.14, -0.283, -0.787, 0.715, 0.072];
      const m = base.map((v, i) => v + cos * withCos[i] + sin * withSin[i]);
      return matrixRow(m, c).map(byte);
    }
    default:
      throw new Error(`no colour formula for ${operation}`);
  }
}

const PALETTE = [
  [0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255], [128, 64, 200], [17, 240, 99], [200, 180, 20], [90, 90, 90],
];

function paletteBitmap(alpha = 255): RgbaBitmap {
  const data = Buffer.alloc(PALETTE.length * 4);
  PALETTE.forEach(([r, g, b], i) => data.set([r, g, b, alpha], i * 4));
  return { data, width: PALETTE.length, height: 1 };
}

describe('applyCssFilter (colour functions)', () => {
  const cases: Array<[ImageOperation, number]> = [
    ['brightness', 0], ['brightness', 50], ['brightness', 100], ['brightness', 175],
    ['contrast', 0], ['contrast', 40], ['contrast', 200],
    ['invert', 0], ['invert', 30], ['invert', 100], ['invert', 150],
    ['grayscale', 0], ['grayscale', 60], ['grayscale', 100], ['grayscale', 300],
    ['saturation', 0], ['saturation', 50], ['saturation', 250],
    ['hue_rotate', 0], ['hue_rotate', 90], ['hue_rotate', 180], ['hue_rotate', -45], ['hue_rotate', 400],
  ];

  it.each(cases)('%s(%d) matches the specification on every pixel, alpha preserved', (operation, value) => {
    const bitmap = paletteBitmap(200);
    applyCssFilter(bitmap, operation, value);
    PALETTE.forEach((rgb, i) => {
      const actual = [...bitmap.data.subarray(i * 4, i * 4 + 4)];
      const want = expected(operation, value, rgb);
      actual.slice(0, 3).forEach((channel, k) => expect(Math.abs(channel - want[k])).toBeLessThanOrEqual(1));
      expect(actual[3]).toBe(200);
    });
  });

  it('refuses negative amounts and non-numbers, but not negative angles', () => {
    expect(() => applyCssFilter(paletteBitmap(), 'contrast', -1)).toThrow('cannot be negative');
    expect(() => applyCssFilter(paletteBitmap(), 'blur', Number.NaN)).toThrow('finite number');
    expect(() => applyCssFilter(paletteBitmap(), 'hue_rotate', -90)).not.toThrow();
  });
});

describe('applyCssFilter (blur)', () => {
  const gaussian1d = (sigma: number, k: number) => Math.exp(-(k * k) / (2 * sigma * sigma));

  function impulse(size: number): RgbaBitmap {
    const data = Buffer.alloc(size * size * 4);
    for (let p = 0; p < size * size; p++) data.set([0, 0, 0, 255], p * 4);
    const centre = ((size - 1) / 2) * size + (size - 1) / 2;
    data.set([255, 255, 255, 255], centre * 4);
    return { data, width: size, height: size };
  }

  it('a deviation of 1 px spreads a point with the Gaussian weights', () => {
    const size = 15;
    const bitmap = impulse(size);
    applyCssFilter(bitmap, 'blur', 1);
    const centre = (size - 1) / 2;
    let norm = 0;
    for (let k = -3; k <= 3; k++) norm += gaussian1d(1, k);
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 2], [1, 1], [3, 2], [5, 0]]) {
      const weight = Math.abs(dx) <= 3 && Math.abs(dy) <= 3 ? (gaussian1d(1, dx) * gaussian1d(1, dy)) / (norm * norm) : 0;
      const p = (centre + dy) * size + centre + dx;
      expect(Math.abs(bitmap.data[p * 4] - weight * 255)).toBeLessThanOrEqual(1);
      expect(bitmap.data[p * 4 + 3]).toBe(255);
    }
  });

  it('a larger deviation keeps a uniform image uniform up to the edges and conserves brightness', () => {
    const size = 40;
    const flat: RgbaBitmap = { data: Buffer.alloc(size * size * 4), width: size, height: size };
    for (let p = 0; p < size * size; p++) flat.data.set([120, 30, 200, 255], p * 4);
    applyCssFilter(flat, 'blur', 6);
    for (let p = 0; p < size * size; p++) expect([...flat.data.subarray(p * 4, p * 4 + 4)]).toEqual([120, 30, 200, 255]);

    const point = impulse(41);
    point.data.fill(0);
    for (let p = 0; p < 41 * 41; p++) point.data[p * 4 + 3] = 255;
    for (let p = 0; p < 41 * 41; p++) if (p === 20 * 41 + 20) point.data.set([255, 255, 255], p * 4);
    applyCssFilter(point, 'blur', 3);
    let sum = 0;
    for (let p = 0; p < 41 * 41; p++) sum += point.data[p * 4];
    expect(Math.abs(sum - 255)).toBeLessThan(255 * 0.25); // rounding of many tiny values
    // Symmetric, and highest at the centre.
    const at = (x: number, y: number) => point.data[(y * 41 + x) * 4];
    expect(at(17, 20)).toBe(at(23, 20));
    expect(at(20, 17)).toBe(at(20, 23));
    expect(at(20, 20)).toBeGreaterThan(at(21, 20));
  });

  it('blurs transparent areas without darkening the colour (premultiplied)', () => {
    const bitmap: RgbaBitmap = { data: Buffer.alloc(8 * 4), width: 8, height: 1 };
    for (let x = 0; x < 8; x++) bitmap.data.set(x < 4 ? [255, 0, 0, 255] : [0, 0, 0, 0], x * 4);
    applyCssFilter(bitmap, 'blur', 1);
    const edge = [...bitmap.data.subarray(4 * 4, 4 * 4 + 4)];
    expect(edge[0]).toBe(255); // still pure red where partly transparent
    expect(edge[3]).toBeGreaterThan(0);
    expect(edge[3]).toBeLessThan(255);
  });
});
