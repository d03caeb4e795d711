import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandIn {
  url: string;
  /** Bodies received, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A third party (remote host, SendGrid, Anthropic) on 127.0.0.1. */
export async function startStandIn(handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void): Promise<StandIn> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push(body);
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
