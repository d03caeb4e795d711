import http from 'node:http';

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  key?: string;
}

export interface CallResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

/** One HTTP request with an explicit Host header (fetch cannot set Host). */
export function call(baseUrl: string, host: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { host, ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = undefined;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: leave undefined
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
