import { findCallCycle } from './function-cycle';

const graph = (edges: Record<string, string[]>) => (id: string) => edges[id] ?? [];

describe('findCallCycle', () => {
  it('finds the chain that leads back to the function, also through several others and to itself', () => {
    expect(findCallCycle('a', graph({ a: ['b'], b: ['c'], c: ['a'] }))).toEqual(['a', 'b', 'c', 'a']);
    expect(findCallCycle('a', graph({ a: ['a'] }))).toEqual(['a', 'a']);
  });

  it('is null when calls only go down, even when two paths meet or another cycle exists beside it', () => {
    expect(findCallCycle('a', graph({ a: ['b', 'c'], b: ['d'], c: ['d'] }))).toBeNull();
    expect(findCallCycle('a', graph({ a: ['b'], b: ['c'], c: ['b'] }))).toBeNull();
  });
});
