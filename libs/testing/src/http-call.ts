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

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any shape, asserted field by field
}

/**
 * One JSON request to `url` (the body sent as JSON, `token` as a bearer token); the answer's body
 * parsed when it is JSON, its text otherwise. `host` overrides the Host header.
 */
export async function request(url: string, options: { method?: string; host?: string; token?: string; body?: unknown } = {}): Promise<Answer> {
  const target = new URL(url);
  const answer = await call(target.origin, options.host ?? target.host, target.pathname + target.search, {
    method: options.method,
    headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
    key: options.token,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: answer.status, headers: answer.headers, body: answer.json === undefined ? answer.text : answer.json };
}
