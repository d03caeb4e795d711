import { splitRequestLogMessage } from '@flowgate/contracts';
import { packByProject } from './pack-messages';

const ev = (key: string, n: number) => ({ key, value: JSON.stringify({ path: `/p\n${String(n).padStart(3, '0')}` }) });
const unpack = (messages: { key: string; value: string }[]) =>
  messages.flatMap((message) => splitRequestLogMessage(message.value).map((line) => ({ key: message.key, value: line })));

describe('packByProject', () => {
  it('puts one project per message, keeping every event and each project’s order', () => {
    const events = [ev('a', 1), ev('b', 2), ev('a', 3), ev('c', 4), ev('b', 5), ev('a', 6)];
    const packed = packByProject(events);
    expect(packed.map((message) => message.key)).toEqual(['a', 'b', 'c']);
    const back = unpack(packed);
    expect(back).toHaveLength(events.length);
    for (const key of ['a', 'b', 'c']) {
      expect(back.filter((e) => e.key === key)).toEqual(events.filter((e) => e.key === key));
    }
  });

  it('splits a project’s events when a message would exceed the byte bound, in order', () => {
    const events = Array.from({ length: 50 }, (_, n) => ev('a', n));
    const size = events[0]!.value.length + 1;
    const packed = packByProject(events, size * 7);
    expect(packed.every((message) => message.value.length <= size * 7)).toBe(true);
    expect(packed).toHaveLength(Math.ceil(50 / 7));
    expect(unpack(packed)).toEqual(events);
  });

  it('gives a single event as the single-event form', () => {
    const [only] = packByProject([ev('a', 1)]);
    expect(only).toEqual(ev('a', 1));
  });
});
