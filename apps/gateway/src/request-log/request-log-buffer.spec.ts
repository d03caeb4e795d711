import type { RequestLogEvent } from '@flowgate/contracts';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { waitFor } from '@flowgate/testing';
import type { LogBatchSender } from './log-batch-sender';
import { RequestLogBuffer } from './request-log-buffer';

/** A sender whose "Kafka" can be switched off; records what it accepted. */
class SwitchableSender implements LogBatchSender {
  up = true;
  delivered: string[] = [];
  attempts = 0;
  batchSizes: number[] = [];
  closed = false;

  async send(messages: string[]): Promise<void> {
    this.attempts++;
    await new Promise((resolve) => setImmediate(resolve));
    if (!this.up) throw new Error('broker unreachable');
    this.batchSizes.push(messages.length);
    this.delivered.push(...messages);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

const projectId = randomUUID();
const event = (n: number): RequestLogEvent => ({
  v: 1,
  environment: 'live',
  trigger: 'http',
  details: null,
  id: randomUUID(),
  project_id: projectId,
  endpoint_id: null,
  path: `/n/${n}`,
  method: 'GET',
  status: 200,
  code: null,
  duration_ms: 1.5,
  key_id: null,
  query: '',
  message: null,
  error_node_id: null,
  time: new Date().toISOString(),
});
const paths = (events: string[]) => events.map((e) => (JSON.parse(e) as RequestLogEvent).path);
const logger = pino({ level: 'silent' });

describe('RequestLogBuffer', () => {
  it('delivers events in order, in batches', async () => {
    const sender = new SwitchableSender();
    const buffer = new RequestLogBuffer({ sender, logger, maxEvents: 1000, batchSize: 50, lingerMs: 1 });
    for (let n = 0; n < 120; n++) buffer.push(event(n));
    await waitFor(() => sender.delivered.length === 120, 'delivery');
    expect(paths(sender.delivered)).toEqual(Array.from({ length: 120 }, (_, n) => `/n/${n}`));
    expect(Math.max(...sender.batchSizes)).toBeLessThanOrEqual(50);
    expect(buffer.depth).toBe(0);
    await buffer.close();
  });

  it('rides out an outage without losing or reordering events, then delivers them', async () => {
    const sender = new SwitchableSender();
    sender.up = false;
    const buffer = new RequestLogBuffer({ sender, logger, maxEvents: 5000, batchSize: 100, lingerMs: 1, retryMinMs: 1, retryMaxMs: 5 });
    for (let n = 0; n < 3000; n++) buffer.push(event(n));
    await waitFor(() => sender.attempts >= 3, 'failed attempts');
    expect(buffer.depth).toBe(3000);
    expect(buffer.dropped).toBe(0);
    sender.up = true;
    await waitFor(() => sender.delivered.length === 3000, 'delivery after the outage');
    expect(paths(sender.delivered)).toEqual(Array.from({ length: 3000 }, (_, n) => `/n/${n}`));
    expect(buffer.depth).toBe(0);
    await buffer.close();
  });

  it('drops and counts events beyond its bound instead of growing', async () => {
    const sender = new SwitchableSender();
    sender.up = false;
    const buffer = new RequestLogBuffer({ sender, logger, maxEvents: 100, batchSize: 10, lingerMs: 1, retryMinMs: 1, retryMaxMs: 5 });
    for (let n = 0; n < 250; n++) buffer.push(event(n));
    expect(buffer.depth).toBe(100);
    expect(buffer.dropped).toBe(150);
    sender.up = true;
    await waitFor(() => sender.delivered.length === 100, 'delivery of the kept events');
    expect(paths(sender.delivered)).toEqual(Array.from({ length: 100 }, (_, n) => `/n/${n}`));
    await buffer.close();
  });

  it('drops and counts events beyond its bound of characters held, below its bound of events, and frees them once delivered', async () => {
    const sender = new SwitchableSender();
    sender.up = false;
    // Events 10 and on are one character longer than 0–9 (`/n/10`): the bound holds ten of them.
    const size = JSON.stringify(event(30)).length;
    const buffer = new RequestLogBuffer({ sender, logger, maxEvents: 100, maxChars: size * 10 + 5, batchSize: 10, lingerMs: 1, retryMinMs: 1, retryMaxMs: 5 });
    for (let n = 0; n < 30; n++) buffer.push(event(n));
    expect([buffer.depth, buffer.dropped]).toEqual([10, 20]);
    sender.up = true;
    await waitFor(() => buffer.depth === 0, 'delivery of the kept events');
    // Delivered events no longer count: ten more fit.
    for (let n = 30; n < 45; n++) buffer.push(event(n));
    expect(buffer.dropped).toBe(25);
    await waitFor(() => sender.delivered.length === 20, 'delivery of the next ten');
    expect(paths(sender.delivered)).toEqual([...Array.from({ length: 10 }, (_, n) => `/n/${n}`), ...Array.from({ length: 10 }, (_, n) => `/n/${30 + n}`)]);
    await buffer.close();
  });

  it('flushes what is buffered on close, then closes the sender', async () => {
    const sender = new SwitchableSender();
    const buffer = new RequestLogBuffer({ sender, logger, maxEvents: 1000, batchSize: 1000, lingerMs: 60_000 });
    for (let n = 0; n < 10; n++) buffer.push(event(n));
    expect(sender.delivered).toHaveLength(0);
    expect(await buffer.close(2000)).toBe(0);
    expect(sender.delivered).toHaveLength(10);
    expect(sender.closed).toBe(true);
  });

  it('reports what it could not deliver when Kafka stays down through shutdown', async () => {
    const sender = new SwitchableSender();
    sender.up = false;
    const buffer = new RequestLogBuffer({ sender, logger, maxEvents: 1000, lingerMs: 1, retryMinMs: 1, retryMaxMs: 5 });
    for (let n = 0; n < 10; n++) buffer.push(event(n));
    expect(await buffer.close(100)).toBe(10);
    expect(sender.closed).toBe(true);
  });
});

describe('RequestLogBuffer batch bounds', () => {
  it('keeps batches under the byte bound', async () => {
    const sender = new SwitchableSender();
    const buffer = new RequestLogBuffer({ sender, logger, maxEvents: 1000, batchSize: 500, batchBytes: 2000, lingerMs: 1 });
    for (let n = 0; n < 40; n++) buffer.push(event(n));
    await waitFor(() => sender.delivered.length === 40, 'delivery');
    const size = JSON.stringify(event(0)).length;
    expect(Math.max(...sender.batchSizes)).toBeLessThanOrEqual(Math.floor(2000 / size));
    await buffer.close();
  });
});

describe('RequestLogBuffer default bound', () => {
  it('holds a 60 s outage at 1,000 req/s (60,000 events) and delivers every one afterwards', async () => {
    const sender = new SwitchableSender();
    sender.up = false;
    const buffer = new RequestLogBuffer({ sender, logger, maxEvents: 100_000, lingerMs: 1, retryMinMs: 1, retryMaxMs: 5 });
    for (let n = 0; n < 60_000; n++) buffer.push(event(n));
    expect(buffer.depth).toBe(60_000);
    expect(buffer.dropped).toBe(0);
    sender.up = true;
    await waitFor(() => sender.delivered.length === 60_000, 'delivery of the backlog', 20_000);
    expect(new Set(sender.delivered).size).toBe(60_000);
    expect(paths(sender.delivered.slice(-3))).toEqual(['/n/59997', '/n/59998', '/n/59999']);
    await buffer.close();
  }, 30_000);
});
