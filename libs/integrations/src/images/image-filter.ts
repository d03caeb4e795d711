import type { ImageOperation } from '@flowgate/flow-engine';
import { applyCssFilter, InvalidFilterValueError } from './css-filters';
import { decodeImage, encodePng, ImageDecodeError } from './image-codec';

export interface ImageFilterTask {
  source: Uint8Array;
  operation: ImageOperation;
  value: number;
  maxPixels: number;
}

export type ImageFilterOutcome = { ok: true; png: Uint8Array } | { ok: false; message: string };

/** Decode, filter, encode as PNG: the pixel work of Manipulate Image, wherever it runs. */
export async function filterImage(task: ImageFilterTask): Promise<ImageFilterOutcome> {
  try {
    const source = Buffer.from(task.source.buffer, task.source.byteOffset, task.source.byteLength);
    const bitmap = await decodeImage(source, task.maxPixels);
    applyCssFilter(bitmap, task.operation, task.value);
    return { ok: true, png: await encodePng(bitmap) };
  } catch (error) {
    if (error instanceof InvalidFilterValueError || error instanceof ImageDecodeError) return { ok: false, message: error.message };
    throw error;
  }
}
