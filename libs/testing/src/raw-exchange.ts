import net from 'node:net';

/** Writes `text` on a fresh connection and collects everything until the gateway closes it. */
export function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

/** Status line and JSON body of a raw answer that carries one response. */
export function parseRawAnswer(raw: string): { status: number; headers: string; json: unknown } {
  const split = raw.indexOf('\r\n\r\n');
  return { status: Number(raw.slice(9, 12)), headers: raw.slice(0, split).toLowerCase(), json: JSON.parse(raw.slice(split + 4)) };
}
