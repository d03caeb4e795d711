import { makeEvent } from '@flowgate/testing';
import { latencyBucketOf } from '@flowgate/db';
import { rollupDeltaCopyData } from './batch-rollups';

interface Delta {
  environment: string;
  bucketMicros: bigint;
  method: string;
  status: number;
  count: number;
  buckets: number[];
  counts: number[];
}

/** Reads binary COPY tuples of the nine delta columns back (what PostgreSQL's receive functions read). */
function readDeltas(data: Buffer): Delta[] {
  expect(data.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
  let at = 19;
  const field = () => {
    const length = data.readInt32BE(at);
    const value = data.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return value;
  };
  const array = (value: Buffer, elementType: number, bytes: number) => {
    expect([value.readInt32BE(0), value.readInt32BE(4), value.readInt32BE(8), value.readInt32BE(16)]).toEqual([1, 0, elementType, 1]);
    const items = value.readInt32BE(12);
    expect(value.length).toBe(20 + items * (4 + bytes));
    return Array.from({ length: items }, (_, i) => (bytes === 2 ? value.readInt16BE(24 + i * 6) : value.readInt32BE(24 + i * 8)));
  };
  const deltas: Delta[] = [];
  for (;;) {
    const fields = data.readInt16BE(at);
    at += 2;
    if (fields === -1) break;
    expect(fields).toBe(9);
    field(); // project_id
    const environment = field().toString('utf8');
    const bucketMicros = field().readBigInt64BE(0);
    const method = field().toString('utf8');
    const status = field().readInt16BE(0);
    field(); // write_id
    const count = field().readInt32BE(0);
    deltas.push({ environment, bucketMicros, method, status, count, buckets: array(field(), 21, 2), counts: array(field(), 23, 4) });
  }
  expect(at).toBe(data.length);
  return deltas;
}

describe('rollupDeltaCopyData', () => {
  it('writes one binary tuple per project, environment, minute, method and status, with every event in its count and latency histogram', () => {
    const projectId = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
    // 60 latencies over many histogram buckets, two minutes, two methods, live and preview.
    const events = Array.from({ length: 60 }, (_, i) =>
      makeEvent({
        project_id: projectId,
        time: i < 40 ? '2026-11-27T09:59:59.999Z' : '2026-11-27T10:00:00.000Z',
        method: i % 3 === 0 ? 'POST' : 'GET',
        status: 200,
        environment: i % 10 === 0 ? 'preview' : 'live',
        duration_ms: 0.01 * 1.4 ** i,
      }),
    );
    const deltas = readDeltas(rollupDeltaCopyData(events, '00000000-0000-4000-8000-000000000001'));

    expect(deltas.reduce((sum, d) => sum + d.count, 0)).toBe(60);
    for (const delta of deltas) expect(delta.counts.reduce((a, b) => a + b, 0)).toBe(delta.count);
    const minute = (iso: string) => BigInt(Date.parse(iso) - Date.UTC(2000, 0, 1)) * 1000n;
    const live = deltas.find((d) => d.environment === 'live' && d.method === 'GET' && d.bucketMicros === minute('2026-11-27T09:59:00Z'))!;
    const expected = events.filter((e, i) => i < 40 && e.environment === 'live' && e.method === 'GET');
    expect(live.count).toBe(expected.length);
    expect(live.buckets.length).toBeGreaterThan(10);
    expect(new Set(live.buckets)).toEqual(new Set(expected.map((e) => latencyBucketOf(Math.fround(e.duration_ms)))));
    expect(deltas.filter((d) => d.environment === 'preview').reduce((sum, d) => sum + d.count, 0)).toBe(6);
    expect(new Set(deltas.map((d) => d.bucketMicros))).toEqual(new Set([minute('2026-11-27T09:59:00Z'), minute('2026-11-27T10:00:00Z')]));
  });
});
