import { NearAnswers } from './near-answers';

describe('NearAnswers (a gateway\'s own copies of cached GET answers)', () => {
  const route = {};
  const body = (n: number) => 'x'.repeat(n);

  it('answers what was kept for the same route, with its age, until its time to live ends', () => {
    const near = new NearAnswers(1024 * 1024);
    near.set(route, 'k', 200, '{"a":1}', 1_000, 61_000);
    expect(near.get(route, 'k', 3_500)).toEqual({ status: 200, body: '{"a":1}', ageS: 2 });
    expect(near.get(route, 'k', 61_000)).toBeNull();
    expect(near.size).toBe(0);
  });

  it('stops answering once the project was reloaded (a new route object), and forgets the entry', () => {
    const near = new NearAnswers(1024 * 1024);
    near.set(route, 'k', 200, '{}', 0, 60_000);
    expect(near.get({}, 'k', 1)).toBeNull();
    expect(near.get(route, 'k', 1)).toBeNull();
    expect(near.heldBytes).toBe(0);
  });

  it('keeps within its bound, the least recently used answer out first', () => {
    const near = new NearAnswers(3 * 2 * 1000 + 3 * 300);
    near.set(route, 'a', 200, body(1000), 0, 60_000);
    near.set(route, 'b', 200, body(1000), 0, 60_000);
    expect(near.get(route, 'a', 1)).not.toBeNull();
    near.set(route, 'c', 200, body(1000), 0, 60_000);
    near.set(route, 'd', 200, body(1000), 0, 60_000);
    expect(near.get(route, 'b', 1)).toBeNull();
    expect(near.get(route, 'a', 1)).not.toBeNull();
    expect(near.heldBytes).toBeLessThanOrEqual(3 * 2 * 1000 + 3 * 300);
  });

  it('never keeps an answer larger than the whole bound', () => {
    const near = new NearAnswers(1000);
    near.set(route, 'big', 200, body(1000), 0, 60_000);
    expect(near.get(route, 'big', 1)).toBeNull();
  });

  it('replaces an entry kept again under the same key', () => {
    const near = new NearAnswers(1024 * 1024);
    near.set(route, 'k', 200, body(100), 0, 60_000);
    near.set(route, 'k', 201, body(10), 0, 60_000);
    expect(near.get(route, 'k', 1)?.status).toBe(201);
    expect(near.size).toBe(1);
  });
});
