import http from 'node:http';

/** One Server-Sent Event as a caller reads it: its `event:` name (null when absent) and its `data:`. */
export interface ReadSseEvent {
  event: string | null;
  data: string;
}

/** A request whose answer is read event by event (`text/event-stream`), with an explicit Host header. */
export interface EventStreamCall {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The next event, in order; rejects once the answer ended without one more. */
  next(): Promise<ReadSseEvent>;
  /** Every event not yet taken by `next`, once the answer ended. */
  rest(): Promise<ReadSseEvent[]>;
  /** The caller goes away: the socket is destroyed. */
  disconnect(): void;
}

/** Sends the request and resolves once the answer's headers arrived (its events are read as they come). */
export function openEventStream(baseUrl: string, host: string, path: string, options: { method?: string; body?: string } = {}): Promise<EventStreamCall> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: { host, ...(options.body ? { 'content-type': 'application/json' } : {}) }, agent: false },
      (res) => {
        const events: ReadSseEvent[] = [];
        const waiting: Array<{ resolve: (event: ReadSseEvent) => void; reject: (error: Error) => void }> = [];
        let buffer = '';
        let ended = false;
        const ends = new Promise<void>((done) => res.once('close', done));
        const deliver = (): void => {
          while (waiting.length > 0 && events.length > 0) waiting.shift()!.resolve(events.shift()!);
          if (ended) for (const waiter of waiting.splice(0)) waiter.reject(new Error('the answer ended'));
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event: string | null = null;
            const data: string[] = [];
            for (const line of frame.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            events.push({ event, data: data.join('\n') });
          }
          deliver();
        });
        res.once('close', () => {
          ended = true;
          deliver();
        });
        res.on('error', () => undefined);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          next: () => new Promise((resolveEvent, rejectEvent) => (waiting.push({ resolve: resolveEvent, reject: rejectEvent }), deliver())),
          rest: async () => {
            await ends;
            return events.splice(0);
          },
          disconnect: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
