import { gzipSync } from 'node:zlib';
import { EgressError, type HttpPort } from '@flowgate/flow-engine';
import { sendJson, type StandIn, startStandIn } from '@flowgate/testing';
import { createHttpPort } from './http-port';

const LOOPBACK = ['127.0.0.0/8'];
const never = () => new AbortController().signal;

async function egressCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EgressError) return error.code;
    throw error;
  }
  throw new Error('expected the request to be refused');
}

describe('HttpPort (egress guard) against a stand-in on 127.0.0.1', () => {
  let remote: StandIn;
  let silent: StandIn;

  beforeAll(async () => {
    remote = await startStandIn((req, res, body) => {
      const url = new URL(req.url ?? '/', 'http://x');
      switch (url.pathname) {
        case '/json':
          return sendJson(res, 200, { ok: true, echo: body, method: req.method }, { 'x-thing': 'a' });
        case '/teapot':
          return sendJson(res, 418, { error: 'short and stout' });
        case '/redirect':
          res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '/json' });
          return res.end();
        case '/loop':
          res.writeHead(302, { location: '/loop' });
          return res.end();
        case '/big':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '4096' });
          return res.end('x'.repeat(4096));
        case '/stream': {
          // No content-length: the cap must stop the download itself.
          res.writeHead(200, { 'content-type': 'text/plain' });
          const timer = setInterval(() => res.write('y'.repeat(512)), 1);
          res.on('close', () => clearInterval(timer));
          return;
        }
        case '/gzip-bomb':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
          return res.end(gzipSync(Buffer.alloc(64 * 1024, 'z')));
        case '/gzip':
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          return res.end(gzipSync(JSON.stringify({ compressed: true })));
        case '/half':
          res.writeHead(200, { 'content-type': 'text/plain' });
          return res.write('partial'); // never ends
        default:
          return sendJson(res, 404, { error: 'nope' });
      }
    });
    silent = await startStandIn(() => {
      /* never answers */
    });
  });

  afterAll(async () => {
    await remote.close();
    await silent.close();
  });

  const port = (options: Parameters<typeof createHttpPort>[0] = {}): HttpPort => createHttpPort({ allowCidrs: LOOPBACK, ...options });

  it('returns status, lowercased headers and the body, sending the flow headers and body', async () => {
    const response = await port().request(
      { method: 'POST', url: `${remote.url}/json`, headers: { 'Content-Type': 'application/json', 'X-Custom': 'v' }, body: '{"a":1}' },
      never(),
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['x-thing']).toBe('a');
    expect(JSON.parse(response.body)).toEqual({ ok: true, echo: '{"a":1}', method: 'POST' });
    const seen = remote.requests.at(-1)!;
    expect(seen.headers['x-custom']).toBe('v');
    expect(seen.headers['content-type']).toBe('application/json');
  });

  it('treats any HTTP status as a response, not an error', async () => {
    const response = await port().request({ method: 'GET', url: `${remote.url}/teapot`, headers: {} }, never());
    expect(response.status).toBe(418);
  });

  it('undoes gzip content encoding', async () => {
    const response = await port().request({ method: 'GET', url: `${remote.url}/gzip`, headers: { 'accept-encoding': 'gzip' } }, never());
    expect(JSON.parse(response.body)).toEqual({ compressed: true });
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('refuses 127.0.0.1 when the allow-list does not cover it', async () => {
    const before = remote.requests.length;
    expect(await egressCode(createHttpPort().request({ method: 'GET', url: `${remote.url}/json`, headers: {} }, never()))).toBe('egress_blocked');
    expect(remote.requests.length).toBe(before);
  });

  it('refuses a hostname that resolves to 127.0.0.1 (localhost) when not allowed, without naming the addresses it resolved to', async () => {
    const before = remote.requests.length;
    const url = `http://localhost:${remote.port}/json`;
    expect(await egressCode(createHttpPort().request({ method: 'GET', url, headers: {} }, never()))).toBe('egress_blocked');
    expect(remote.requests.length).toBe(before);
    const refusal = await createHttpPort().request({ method: 'GET', url, headers: {} }, never()).catch((error: unknown) => error as Error);
    expect((refusal as Error).message).toBe('localhost is not reachable from flows (it resolves only to addresses flows may not reach)');
    // A literal address is the flow's own: the reason is given.
    const literal = await createHttpPort().request({ method: 'GET', url: 'http://10.0.0.1/', headers: {} }, never()).catch((error: unknown) => error as Error);
    expect((literal as Error).message).toMatch(/^10\.0\.0\.1 is not reachable from flows: 10\.0\.0\.1 is /);
  });

  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/', 'http://[::1]/', 'http://10.0.0.1/', 'http://0x7f.1/'])(
    'refuses %s even with loopback allowed where it is not loopback',
    async (url) => {
      const allowList = url.includes('0x7f') ? [] : LOOPBACK;
      expect(await egressCode(createHttpPort({ allowCidrs: allowList }).request({ method: 'GET', url, headers: {} }, never()))).toBe(
        'egress_blocked',
      );
    },
  );

  it('refuses schemes other than http and https', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://127.0.0.1/']) {
      expect(await egressCode(port().request({ method: 'GET', url, headers: {} }, never()))).toBe('egress_blocked');
    }
  });

  it('follows redirects, re-checking each hop, and refuses one into a private range', async () => {
    const followed = await port().request({ method: 'GET', url: `${remote.url}/redirect?to=/json`, headers: {} }, never());
    expect(followed.status).toBe(200);
    for (const target of ['http://10.0.0.7/admin', 'http://169.254.169.254/latest/meta-data/', 'http://[fd00::1]/']) {
      const url = `${remote.url}/redirect?to=${encodeURIComponent(target)}`;
      expect(await egressCode(port().request({ method: 'GET', url, headers: {} }, never()))).toBe('egress_blocked');
    }
    // Only 127.0.0.1 allowed: a redirect to another loopback address is refused.
    const narrow = createHttpPort({ allowCidrs: ['127.0.0.1/32'] });
    // 127.0.0.2 is loopback but outside the allowed 127.0.0.1/32 (a literal address: no DNS, so no either-or).
    const url = `${remote.url}/redirect?to=${encodeURIComponent(`http://127.0.0.2:${remote.port}/json`)}`;
    expect(await egressCode(narrow.request({ method: 'GET', url, headers: {} }, never()))).toBe('egress_blocked');
  });

  it('turns a POST into a GET on 303 and drops credentials across origins', async () => {
    const other = `http://localhost:${remote.port}/json`;
    const before = remote.requests.length;
    await port().request(
      {
        method: 'POST',
        url: `${remote.url}/redirect?status=303&to=${encodeURIComponent(other)}`,
        headers: { authorization: 'Bearer secret', 'content-type': 'application/json' },
        body: '{}',
      },
      never(),
    );
    const [first, second] = remote.requests.slice(before);
    expect(first.headers.authorization).toBe('Bearer secret');
    expect(second.method).toBe('GET');
    expect(second.body).toBe('');
    expect(second.headers.authorization).toBeUndefined();
  });

  it('stops after 5 redirects', async () => {
    expect(await egressCode(port().request({ method: 'GET', url: `${remote.url}/loop`, headers: {} }, never()))).toBe('connection_failed');
  });

  it('connects to the address it checked, not to another answer for the name', async () => {
    const resolve = async () => [
      { address: '10.9.9.9', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    const response = await port({ resolve }).request({ method: 'GET', url: `http://stand-in.test:${remote.port}/json`, headers: {} }, never());
    expect(response.status).toBe(200);
    expect(remote.requests.at(-1)!.headers.host).toBe(`stand-in.test:${remote.port}`);
    const onlyPrivate = async () => [{ address: '10.9.9.9', family: 4 }];
    const refused = port({ resolve: onlyPrivate }).request({ method: 'GET', url: `http://stand-in.test:${remote.port}/json`, headers: {} }, never());
    expect(await egressCode(refused)).toBe('egress_blocked');
  });

  it('times out on an upstream that never answers, or never finishes the body', async () => {
    const quick = port({ timeoutMs: 200 });
    expect(await egressCode(quick.request({ method: 'GET', url: `${silent.url}/`, headers: {} }, never()))).toBe('timeout');
    expect(await egressCode(quick.request({ method: 'GET', url: `${remote.url}/half`, headers: {} }, never()))).toBe('timeout');
  });

  it('gives up when the caller aborts (the flow deadline)', async () => {
    const controller = new AbortController();
    const pending = port().request({ method: 'GET', url: `${silent.url}/`, headers: {} }, controller.signal);
    controller.abort();
    expect(await egressCode(pending)).toBe('timeout');
  });

  it('refuses responses over the size cap, declared or streamed or decompressed', async () => {
    const small = port({ maxResponseBytes: 1024 });
    for (const path of ['/big', '/stream', '/gzip-bomb']) {
      expect(await egressCode(small.request({ method: 'GET', url: `${remote.url}${path}`, headers: {} }, never()))).toBe('response_too_large');
    }
  });

  it('reports connection failures', async () => {
    const closed = await startStandIn(() => undefined);
    await closed.close();
    expect(await egressCode(port().request({ method: 'GET', url: `${closed.url}/`, headers: {} }, never()))).toBe('connection_failed');
    expect(await egressCode(port().request({ method: 'GET', url: 'not a url', headers: {} }, never()))).toBe('connection_failed');
    expect(await egressCode(port().request({ method: 'GET', url: `${remote.url}/json`, headers: { 'x-bad': 'a\r\nb' } }, never()))).toBe(
      'connection_failed',
    );
  });
});
