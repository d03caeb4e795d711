import type { ImageOperation } from '@flowgate/flow-engine';

/** RGBA, 8 bits per channel, not premultiplied (jimp's bitmap layout). */
export interface RgbaBitmap {
  data: Buffer | Uint8Array;
  width: number;
  height: number;
}

export class InvalidFilterValueError extends Error {
  override name = 'InvalidFilterValueError';
}

type Matrix3 = readonly [number, number, number, number, number, number, number, number, number];

/**
 * Applies one CSS filter function in place, with the formulas of W3C Filter Effects
 * Module Level 1 §"Supported Filter Functions" on sRGB values (as browsers do for the
 * shorthand functions): the colour functions are `feColorMatrix` / `feComponentTransfer`
 * on non-premultiplied colour with alpha untouched; `blur` is `feGaussianBlur` with
 * `edgeMode="duplicate"` on premultiplied colour. Results are clamped to [0, 1].
 * `value` is in percent for contrast, brightness, saturation, grayscale and invert,
 * pixels for blur, degrees for hue_rotate.
 */
export function applyCssFilter(bitmap: RgbaBitmap, operation: ImageOperation, value: number): void {
  if (!Number.isFinite(value)) throw new InvalidFilterValueError(`${operation} needs a finite number (got ${value})`);
  if (operation !== 'hue_rotate' && value < 0) throw new InvalidFilterValueError(`${operation} cannot be negative (got ${value})`);
  const amount = value / 100;
  switch (operation) {
    case 'contrast':
      return transfer(bitmap, (c) => amount * c - 0.5 * amount + 0.5);
    case 'brightness':
      return transfer(bitmap, (c) => amount * c);
    case 'invert': {
      const a = Math.min(amount, 1);
      // feFuncX type="table" tableValues="[amount] (1 - [amount])"
      return transfer(bitmap, (c) => a + c * (1 - 2 * a));
    }
    case 'grayscale':
      return colorMatrix(bitmap, grayscaleMatrix(Math.min(amount, 1)));
    case 'saturation':
      return colorMatrix(bitmap, saturateMatrix(amount));
    case 'hue_rotate':
      return colorMatrix(bitmap, hueRotateMatrix(value));
    case 'blur':
      return gaussianBlur(bitmap, value);
    default: {
      const unknown: never = operation;
      throw new InvalidFilterValueError(`unknown operation ${String(unknown)}`);
    }
  }
}

export function grayscaleMatrix(amount: number): Matrix3 {
  const k = 1 - amount;
  return [
    0.2126 + 0.7874 * k, 0.7152 - 0.7152 * k, 0.0722 - 0.0722 * k,
    0.2126 - 0.2126 * k, 0.7152 + 0.2848 * k, 0.0722 - 0.0722 * k,
    0.2126 - 0.2126 * k, 0.7152 - 0.7152 * k, 0.0722 + 0.9278 * k,
  ];
}

export function saturateMatrix(s: number): Matrix3 {
  return [
    0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s,
    0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s,
    0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s,
  ];
}

export function hueRotateMatrix(degrees: number): Matrix3 {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  return [
    0.213 + cos * 0.787 - sin * 0.213, 0.715 - cos * 0.715 - sin * 0.715, 0.072 - cos * 0.072 + sin * 0.928,
    0.213 - cos * 0.213 + sin * 0.143, 0.715 + cos * 0.285 + sin * 0.14, 0.072 - cos * 0.072 - sin * 0.283,
    0.213 - cos * 0.213 - sin * 0.787, 0.715 - cos * 0.715 + sin * 0.715, 0.072 + cos * 0.928 + sin * 0.072,
  ];
}

const toByte = (unit: number): number => Math.round(Math.min(1, Math.max(0, unit)) * 255);

function transfer(bitmap: RgbaBitmap, fn: (c: number) => number): void {
  const table = new Uint8Array(256);
  for (let i = 0; i < 256; i++) table[i] = toByte(fn(i / 255));
  const { data } = bitmap;
  for (let i = 0; i < data.length; i += 4) {
    data[i] = table[data[i]];
    data[i + 1] = table[data[i + 1]];
    data[i + 2] = table[data[i + 2]];
  }
}

function colorMatrix(bitmap: RgbaBitmap, m: Matrix3): void {
  const { data } = bitmap;
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i] / 255;
    const g = data[i + 1] / 255;
    const b = data[i + 2] / 255;
    data[i] = toByte(m[0] * r + m[1] * g + m[2] * b);
    data[i + 1] = toByte(m[3] * r + m[4] * g + m[5] * b);
    data[i + 2] = toByte(m[6] * r + m[7] * g + m[8] * b);
  }
}

/** One 1-D pass over `line` (length n), writing `out`; indices beyond the edge repeat the edge. */
type Pass = (line: Float32Array, out: Float32Array, n: number) => void;

/**
 * Below a deviation of 2 the exact kernel (±3σ); from 2 on, the three box blurs the
 * specification gives as the approximation (d = ⌊σ·3·√(2π)/4 + 0.5⌋), which costs the same
 * whatever the radius.
 */
export function blurPasses(sigma: number): Pass[] {
  if (sigma <= 0) return [];
  if (sigma < 2) return [kernelPass(sigma)];
  const d = Math.floor((sigma * 3 * Math.sqrt(2 * Math.PI)) / 4 + 0.5);
  if (d % 2 === 1) {
    const half = (d - 1) / 2;
    return [boxPass(half, half), boxPass(half, half), boxPass(half, half)];
  }
  const half = d / 2;
  return [boxPass(half, half - 1), boxPass(half - 1, half), boxPass(half, half)];
}

function kernelPass(sigma: number): Pass {
  const radius = Math.ceil(3 * sigma);
  const weights = new Float64Array(2 * radius + 1);
  let total = 0;
  for (let k = -radius; k <= radius; k++) {
    weights[k + radius] = Math.exp(-(k * k) / (2 * sigma * sigma));
    total += weights[k + radius];
  }
  for (let k = 0; k < weights.length; k++) weights[k] /= total;
  return (line, out, n) => {
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++) sum += weights[k + radius] * line[Math.min(n - 1, Math.max(0, i + k))];
      out[i] = sum;
    }
  };
}

/** Mean over [i - left, i + right]. */
function boxPass(left: number, right: number): Pass {
  const size = left + right + 1;
  return (line, out, n) => {
    const at = (index: number) => line[Math.min(n - 1, Math.max(0, index))];
    let sum = 0;
    for (let k = -left; k <= right; k++) sum += at(k);
    for (let i = 0; i < n; i++) {
      out[i] = sum / size;
      sum += at(i + 1 + right) - at(i - left);
    }
  };
}

function gaussianBlur(bitmap: RgbaBitmap, sigma: number): void {
  const passes = blurPasses(sigma);
  if (passes.length === 0) return;
  const { data, width, height } = bitmap;
  const pixels = width * height;
  const alpha = new Float32Array(pixels);
  for (let p = 0; p < pixels; p++) alpha[p] = data[p * 4 + 3] / 255;
  const plane = new Float32Array(pixels);
  const a = Float32Array.from(alpha);
  blurPlane(a, width, height, passes);
  for (let channel = 0; channel < 3; channel++) {
    for (let p = 0; p < pixels; p++) plane[p] = (data[p * 4 + channel] / 255) * alpha[p];
    blurPlane(plane, width, height, passes);
    for (let p = 0; p < pixels; p++) data[p * 4 + channel] = a[p] > 0 ? toByte(plane[p] / a[p]) : 0;
  }
  for (let p = 0; p < pixels; p++) data[p * 4 + 3] = toByte(a[p]);
}

/** Blurs a width×height plane in place: rows, then columns, each through every pass. */
function blurPlane(plane: Float32Array, width: number, height: number, passes: Pass[]): void {
  const longest = Math.max(width, height);
  let line = new Float32Array(longest);
  let out = new Float32Array(longest);
  const run = (n: number) => {
    for (const pass of passes) {
      pass(line, out, n);
      [line, out] = [out, line];
    }
  };
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) line[x] = plane[row + x];
    run(width);
    for (let x = 0; x < width; x++) plane[row + x] = line[x];
  }
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) line[y] = plane[y * width + x];
    run(height);
    for (let y = 0; y < height; y++) plane[y * width + x] = line[y];
  }
}
