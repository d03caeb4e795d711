import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { imageKey } from '@flowgate/contracts';
import { EgressError, IntegrationError, type ImagePort } from '@flowgate/flow-engine';
import { Redis } from 'ioredis';
import { Jimp } from 'jimp';
import { createEgressFetch } from '../egress/http-port';
import { type StandIn, startStandIn } from '@flowgate/testing';
import { decodeImage } from './image-codec';
import { createImagePort } from './image-port';
import { serveStoredImage } from './image-request.handler';
import { RedisImageStore } from './image-store';

const never = () => new AbortController().signal;
const PIXELS: Array<[number, number, number, number]> = [
  [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [128, 64, 200, 255], [17, 240, 99, 128], [200, 180, 20, 255],
];

async function samplePng(): Promise<Buffer> {
  const image = new Jimp({ width: PIXELS.length, height: 1, color: 0x000000ff });
  PIXELS.forEach((rgba, i) => image.bitmap.data.set(rgba, i * 4));
  return image.getBuffer('image/png');
}

async function pixelsOf(png: Buffer): Promise<number[][]> {
  const bitmap = await decodeImage(png, 1000);
  return Array.from({ length: bitmap.width }, (_, i) => [...bitmap.data.subarray(i * 4, i * 4 + 4)]);
}

describe('ImagePort with a remote-image stand-in and real Redis', () => {
  let redis: Redis;
  let remote: StandIn;
  let gateway: http.Server;
  let gatewayUrl: string;
  let port: ImagePort;
  const stored: string[] = [];

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const png = await samplePng();
    const huge = new Jimp({ width: 300, height: 300, color: 0xffffffff });
    const hugePng = await huge.getBuffer('image/png');
    remote = await startStandIn((req, res) => {
      if (req.url === '/sample.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (req.url === '/big.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(hugePng);
      if (req.url === '/text') return res.writeHead(200, { 'content-type': 'text/plain' }).end('not an image');
      res.writeHead(404).end();
    });
    const store = new RedisImageStore(redis);
    gateway = http.createServer((req, res) => void serveStoredImage(req, res, store));
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    port = createImagePort({
      store: {
        put: async (id, bytes, ttl) => {
          stored.push(id);
          await store.put(id, bytes, ttl);
        },
        get: (id) => store.get(id),
      },
      publicBaseUrl: `${gatewayUrl}/`,
      fetch: createEgressFetch({ allowCidrs: ['127.0.0.0/8'] }),
      ttlSeconds: 600,
      maxPixels: 50_000,
    });
  });

  afterAll(async () => {
    if (stored.length) await redis.del(...stored.map(imageKey));
    await remote.close();
    await new Promise((resolve) => gateway.close(resolve));
    redis.disconnect();
  });

  it('stores the filtered PNG and serves it at <base>/_images/<id>.png with cache headers', async () => {
    const url = await port.manipulate({ image_url: `${remote.url}/sample.png`, operation: 'grayscale', value: 100 }, never());
    expect(url).toMatch(new RegExp(`^${gatewayUrl}/_images/[A-Za-z0-9_-]{22}\\.png$`));
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const cache = response.headers.get('cache-control') ?? '';
    expect(cache).toContain('immutable');
    const maxAge = Number(/max-age=(\d+)/.exec(cache)?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(600);
    const pixels = await pixelsOf(Buffer.from(await response.arrayBuffer()));
    PIXELS.forEach(([r, g, b, a], i) => {
      const y = Math.round(Math.min(1, 0.2126 * (r / 255) + 0.7152 * (g / 255) + 0.0722 * (b / 255)) * 255);
      const [pr, pg, pb, pa] = pixels[i];
      for (const channel of [pr, pg, pb]) expect(Math.abs(channel - y)).toBeLessThanOrEqual(1);
      expect(pa).toBe(a);
    });
    expect(await redis.ttl(imageKey(stored.at(-1)!))).toBeGreaterThan(0);
  });

  it('applies invert and hue_rotate with the specification formulas', async () => {
    const inverted = await pixelsOf(
      (await redis.getBuffer(imageKey(idOf(await port.manipulate({ image_url: `${remote.url}/sample.png`, operation: 'invert', value: 100 }, never())))))!,
    );
    PIXELS.forEach(([r, g, b, a], i) => expect(inverted[i]).toEqual([255 - r, 255 - g, 255 - b, a]));

    const rotated = await pixelsOf(
      (await redis.getBuffer(imageKey(idOf(await port.manipulate({ image_url: `${remote.url}/sample.png`, operation: 'hue_rotate', value: 180 }, never())))))!,
    );
    // hue-rotate(180deg): cos = -1, sin = 0.
    const m = [-0.574, 1.43, 0.144, 0.426, 0.43, 0.144, 0.426, 1.43, -0.856];
    PIXELS.forEach(([r, g, b], i) => {
      const c = [r / 255, g / 255, b / 255];
      [0, 1, 2].forEach((row) => {
        const want = Math.round(Math.min(1, Math.max(0, m[row * 3] * c[0] + m[row * 3 + 1] * c[1] + m[row * 3 + 2] * c[2])) * 255);
        expect(Math.abs(rotated[i][row] - want)).toBeLessThanOrEqual(1);
      });
    });
  });

  it('answers 404 with the error body for a missing or malformed image id', async () => {
    for (const path of ['/_images/AAAAAAAAAAAAAAAAAAAAAA.png', '/_images/..%2Fsecret.png']) {
      const response = await fetch(`${gatewayUrl}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ success: false, code: 'not_found', message: expect.any(String) });
    }
  });

  it('gives clear errors past the caps and for things that are not images', async () => {
    const overPixels = port.manipulate({ image_url: `${remote.url}/big.png`, operation: 'blur', value: 2 }, never());
    await expect(overPixels).rejects.toThrow(IntegrationError);
    await expect(overPixels).rejects.toThrow('300×300 (0.1 MP); the limit is 0.05 MP');

    const tinyBytes = createImagePort({
      store: new RedisImageStore(redis),
      publicBaseUrl: gatewayUrl,
      fetch: createEgressFetch({ allowCidrs: ['127.0.0.0/8'] }),
      maxBytes: 100,
    });
    const overBytes = tinyBytes.manipulate({ image_url: `${remote.url}/big.png`, operation: 'blur', value: 1 }, never());
    await expect(overBytes).rejects.toMatchObject({ code: 'response_too_large' });
    await expect(overBytes).rejects.toThrow('FLOWGATE_IMAGE_MAX_BYTES');
    await expect(port.manipulate({ image_url: `${remote.url}/text`, operation: 'blur', value: 1 }, never())).rejects.toThrow('not return a supported image');
    await expect(port.manipulate({ image_url: `${remote.url}/missing.png`, operation: 'blur', value: 1 }, never())).rejects.toThrow('HTTP 404');
    await expect(port.manipulate({ image_url: `${remote.url}/sample.png`, operation: 'brightness', value: -5 }, never())).rejects.toThrow(
      IntegrationError,
    );
  });

  it('fetches through the egress guard (metadata address refused)', async () => {
    const attempt = port.manipulate({ image_url: 'http://169.254.169.254/latest/meta-data/', operation: 'invert', value: 100 }, never());
    await expect(attempt).rejects.toBeInstanceOf(EgressError);
    await expect(attempt).rejects.toMatchObject({ code: 'egress_blocked' });
  });
});

function idOf(url: string): string {
  return /\/_images\/([^/]+)\.png$/.exec(url)![1];
}
