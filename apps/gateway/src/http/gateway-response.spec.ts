import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayResponse, LARGE_ANSWER_CHARS, sendJson } from './gateway-response';

/** A server on the gateway's response class that answers each request with `body`, and what `onWrite` was told. */
async function serving(body: string, heldBack = false): Promise<{ url: string; told: Array<{ projectId: string | null; ms: number }>; close: () => Promise<void> }> {
  const told: Array<{ projectId: string | null; ms: number }> = [];
  const server = http.createServer({ ServerResponse: GatewayResponse }, (_req, res) => {
    const answer = res as GatewayResponse;
    answer.projectId = 'p1';
    answer.heldBack = heldBack;
    answer.onWrite = (written, ms) => told.push({ projectId: written.projectId, ms });
    sendJson(answer, 200, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    told,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('sendJson', () => {
  it("tells the answer's project how long writing a large answer took, and says nothing of small ones", async () => {
    const large = await serving(JSON.stringify({ echo: 'x'.repeat(LARGE_ANSWER_CHARS) }));
    const small = await serving('{"ok":true}');
    try {
      const answers = await Promise.all([fetch(large.url).then((res) => res.text()), fetch(small.url).then((res) => res.text())]);
      expect(answers[0].length).toBeGreaterThan(LARGE_ANSWER_CHARS);
      expect(answers[1]).toBe('{"ok":true}');
      expect(large.told).toEqual([{ projectId: 'p1', ms: expect.any(Number) }]);
      expect(large.told[0]!.ms).toBeGreaterThanOrEqual(0);
      expect(small.told).toEqual([]);
    } finally {
      await large.close();
      await small.close();
    }
  });

  it('tells how long writing a small answer took when the request was held back (its project took most of the loop)', async () => {
    const held = await serving('{"ok":false}', true);
    try {
      expect(await fetch(held.url).then((res) => res.text())).toBe('{"ok":false}');
      expect(held.told).toEqual([{ projectId: 'p1', ms: expect.any(Number) }]);
    } finally {
      await held.close();
    }
  });

  it('sends a large answer whole, its Content-Length in bytes, characters outside ASCII included', async () => {
    const body = JSON.stringify({ echo: 'é€😀x'.repeat(LARGE_ANSWER_CHARS / 4) });
    const large = await serving(body);
    try {
      const res = await fetch(large.url);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect(bytes.toString('utf8')).toBe(body);
    } finally {
      await large.close();
    }
  });
});
