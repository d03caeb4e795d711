import { makeEvent } from '@flowgate/testing';
import { binaryCopyData } from './copy-binary';

describe('binaryCopyData', () => {
  it("writes PostgreSQL's binary COPY: signature, one 18-field tuple per event with its UUIDs as 16 bytes, and the trailer", () => {
    const event = makeEvent({ id: '6F9619FF-8B86-4011-B42D-00C04FC964FF', path: '/a', time: '2000-01-01T00:00:00.001Z' });
    const data = binaryCopyData([event, makeEvent()])!;
    expect(data.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
    expect(data.readInt16BE(19)).toBe(18);
    expect(data.readInt32BE(21)).toBe(16);
    expect(data.subarray(25, 41).toString('hex')).toBe('6f9619ff8b864011b42d00c04fc964ff');
    expect(data.readInt32BE(41)).toBe(8);
    expect(data.readBigInt64BE(45)).toBe(1000n); // 1 ms after PostgreSQL's epoch, in microseconds
    expect(data.readInt16BE(data.length - 2)).toBe(-1);
  });

  it('declines a batch with a time in another form than the gateway writes, or one that names no real instant', () => {
    expect(binaryCopyData([makeEvent(), makeEvent({ time: '2026-11-20T12:00:01.5+02:00' })])).toBeNull();
    expect(binaryCopyData([makeEvent({ time: '2026-11-20T10:00:00Z' })])).toBeNull();
    expect(binaryCopyData([makeEvent({ time: '2026-02-31T10:00:00.000Z' })])).toBeNull();
    expect(binaryCopyData([makeEvent()])).not.toBeNull();
  });
});
