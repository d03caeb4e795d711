import { randomBytes } from 'node:crypto';
import { EgressError, IntegrationError, type ImageOperation, type ImagePort } from '@flowgate/flow-engine';
import type { GuardedFetch } from '../egress/guarded-fetch';
import { filterImage, type ImageFilterOutcome, type ImageFilterTask } from './image-filter';
import type { ImageStore } from './image-store';

export const DEFAULT_IMAGE_TTL_SECONDS = 86_400;
export const DEFAULT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_IMAGE_MAX_PIXELS = 25_000_000;
const PROVIDER = 'manipulate_image';

export interface ImagePortOptions {
  store: ImageStore;
  /** The project's base URL, e.g. `http://shop.localhost:8080`; results are `<base>/_images/<id>.png`. */
  publicBaseUrl: string;
  /** The egress-guarded fetch (the same guard as `http_request`). */
  fetch: GuardedFetch;
  ttlSeconds?: number;
  maxBytes?: number;
  maxPixels?: number;
  /**
   * The pixel work (decode, filter, encode). The gateway passes its worker pool's, so that an
   * image at the pixel cap never runs on the event loop; default: on the calling thread.
   */
  filter?: (task: ImageFilterTask, signal: AbortSignal) => Promise<ImageFilterOutcome>;
}


export function createImagePort(options: ImagePortOptions): ImagePort {
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_IMAGE_TTL_SECONDS;
  const maxBytes = options.maxBytes ?? DEFAULT_IMAGE_MAX_BYTES;
  const maxPixels = options.maxPixels ?? DEFAULT_IMAGE_MAX_PIXELS;
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const filter = options.filter ?? ((task: ImageFilterTask) => filterImage(task));

  return {
    async manipulate(request: { image_url: string; operation: ImageOperation; value: number }, signal: AbortSignal): Promise<string> {
      const source = await download(options.fetch, request.image_url, maxBytes, signal);
      const filtered = await filter({ source, operation: request.operation, value: request.value, maxPixels }, signal);
      if (!filtered.ok) throw new IntegrationError(PROVIDER, filtered.message);
      throwIfAborted(signal);
      const png = Buffer.from(filtered.png.buffer, filtered.png.byteOffset, filtered.png.byteLength);
      const id = randomBytes(16).toString('base64url');
      await options.store.put(id, png, ttlSeconds);
      return `${base}/_images/${id}.png`;
    },
  };
}

async function download(fetch: GuardedFetch, url: string, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  try {
    const response = await fetch({ method: 'GET', url, headers: { accept: 'image/*' } }, signal, { maxResponseBytes: maxBytes });
    if (response.status < 200 || response.status > 299) {
      throw new IntegrationError(PROVIDER, `the image URL answered HTTP ${response.status}`);
    }
    return response.body;
  } catch (error) {
    if (error instanceof EgressError && error.code === 'response_too_large') {
      throw new EgressError('response_too_large', `the image is larger than ${formatBytes(maxBytes)} (FLOWGATE_IMAGE_MAX_BYTES)`);
    }
    throw error;
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
