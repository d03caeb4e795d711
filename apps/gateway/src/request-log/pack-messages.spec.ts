import { splitRequestLogMessage } from '@flowgate/contracts';
import { packMessages } from './pack-messages';

const ev = (project: string, n: number) => JSON.stringify({ project, path: `/p\n${String(n).padStart(3, '0')}` });
const unpack = (messages: { value: string }[]) => messages.flatMap((message) => splitRequestLogMessage(message.value));

describe('packMessages', () => {
  it('packs a send into one message, every project’s events in their order, for the partition it is given', () => {
    const events = [ev('a', 1), ev('b', 2), ev('a', 3), ev('c', 4), ev('b', 5), ev('a', 6)];
    const packed = packMessages(events, 2);
    expect(packed).toHaveLength(1);
    expect(packed[0]!.partition).toBe(2);
    expect(unpack(packed)).toEqual(events);
  });

  it('names no partition before the sender knows the topic’s', () => {
    const [only] = packMessages([ev('a', 1), ev('b', 2)]);
    expect(only).toEqual({ value: [ev('a', 1), ev('b', 2)].join('\n') });
  });

  it('starts a new message whenever one would exceed the byte bound, in order', () => {
    const events = Array.from({ length: 50 }, (_, n) => ev(n % 2 ? 'a' : 'b', n));
    const size = events[0]!.length + 1;
    const packed = packMessages(events, 3, size * 7);
    expect(packed.every((message) => message.value.length <= size * 7 && message.partition === 3)).toBe(true);
    expect(packed).toHaveLength(Math.ceil(50 / 7));
    expect(unpack(packed)).toEqual(events);
  });

  it('gives a single event as the single-event form, and nothing for nothing', () => {
    expect(packMessages([ev('a', 1)])).toEqual([{ value: ev('a', 1) }]);
    expect(packMessages([])).toEqual([]);
  });
});
