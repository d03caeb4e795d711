import type { PartitionerArgs } from 'kafkajs';
import { PARTITION_STICKS_MS, StickyPartition } from './kafka-log-sender';

const metadata = (count: number) => Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
const send = (partitioner: (args: PartitionerArgs) => number, count: number, partition?: number) =>
  partitioner({ topic: 't', partitionMetadata: metadata(count), message: { value: 'x', partition } });

describe('StickyPartition', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('names none before a send showed the topic, then keeps one partition for a while and takes each in turn', () => {
    const sticky = new StickyPartition();
    const partitioner = sticky.createPartitioner();
    expect(sticky.now()).toBeUndefined();
    send(partitioner, 3);

    const first = sticky.now()!;
    jest.advanceTimersByTime(PARTITION_STICKS_MS - 1);
    expect(sticky.now()).toBe(first);
    const seen = [first];
    for (let turn = 0; turn < 5; turn++) {
      jest.advanceTimersByTime(PARTITION_STICKS_MS);
      seen.push(sticky.now()!);
    }
    expect(seen).toEqual(Array.from({ length: 6 }, (_, n) => (first + n) % 3));
    // A message that names its partition lands there.
    expect(send(partitioner, 3, seen[1])).toBe(seen[1]);
  });

  it('follows the topic when it grows', () => {
    const sticky = new StickyPartition();
    const partitioner = sticky.createPartitioner();
    send(partitioner, 2);
    const seen = new Set<number>();
    send(partitioner, 6);
    for (let turn = 0; turn < 6; turn++) {
      seen.add(sticky.now()!);
      jest.advanceTimersByTime(PARTITION_STICKS_MS);
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
