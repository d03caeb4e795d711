import { imageSize } from 'image-size';
import { defaultFormats } from 'jimp';
import type { RgbaBitmap } from './css-filters';

export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

const MIME_BY_TYPE: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
};

interface Codec {
  mime: string;
  decode(data: Buffer): Promise<RgbaBitmap> | RgbaBitmap;
  encode(bitmap: RgbaBitmap): Promise<Buffer> | Buffer;
}
const codecs = defaultFormats.map((format) => format() as unknown as Codec);
const codecFor = (mime: string): Codec | undefined => codecs.find((codec) => codec.mime === mime);

/**
 * Decodes with jimp's format codecs. The type and the canvas size come from the header
 * (image-size) before anything is decoded, so a small file declaring a huge canvas is
 * refused without allocating it. (jimp's own `fromBuffer` sniffs the type through a
 * dynamic ESM import; choosing the codec here keeps one detection for both steps.)
 */
export async function decodeImage(source: Buffer, maxPixels: number): Promise<RgbaBitmap> {
  let header: ReturnType<typeof imageSize>;
  try {
    header = imageSize(source);
  } catch {
    throw new ImageDecodeError('the URL did not return a supported image (PNG, JPEG, GIF, BMP or TIFF)');
  }
  const codec = header.type ? codecFor(MIME_BY_TYPE[header.type] ?? '') : undefined;
  if (!codec) throw new ImageDecodeError(`${header.type ?? 'this'} images are not supported (PNG, JPEG, GIF, BMP or TIFF)`);
  const pixels = header.width * header.height;
  if (pixels > maxPixels) {
    throw new ImageDecodeError(
      `the image is ${header.width}×${header.height} (${(pixels / 1e6).toFixed(1)} MP); the limit is ${maxPixels / 1e6} MP (FLOWGATE_IMAGE_MAX_PIXELS)`,
    );
  }
  let bitmap: RgbaBitmap;
  try {
    bitmap = await codec.decode(source);
  } catch {
    throw new ImageDecodeError('the image could not be decoded (corrupt or truncated)');
  }
  if (bitmap.width * bitmap.height > maxPixels) throw new ImageDecodeError('the decoded image is larger than it declared');
  return applyExifOrientation(bitmap, header.orientation ?? 1);
}

export async function encodePng(bitmap: RgbaBitmap): Promise<Buffer> {
  return codecFor('image/png')!.encode(bitmap);
}

/** Browsers show JPEGs the way their EXIF orientation says (`image-orientation: from-image`). */
function applyExifOrientation(bitmap: RgbaBitmap, orientation: number): RgbaBitmap {
  if (orientation < 2 || orientation > 8) return bitmap;
  const { width: w, height: h, data: source } = bitmap;
  // Target (x, y) → source (x, y), per the EXIF orientation table.
  const mappings: Record<number, (x: number, y: number) => [number, number]> = {
    2: (x, y) => [w - x - 1, y],
    3: (x, y) => [w - x - 1, h - y - 1],
    4: (x, y) => [x, h - y - 1],
    5: (x, y) => [y, x],
    6: (x, y) => [y, h - x - 1],
    7: (x, y) => [w - y - 1, h - x - 1],
    8: (x, y) => [w - y - 1, x],
  };
  const map = mappings[orientation];
  const width = orientation > 4 ? h : w;
  const height = orientation > 4 ? w : h;
  const data = Buffer.alloc(source.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [sx, sy] = map(x, y);
      data.set(source.subarray((sy * w + sx) * 4, (sy * w + sx) * 4 + 4), (y * width + x) * 4);
    }
  }
  return { data, width, height };
}
