import type { JsonValue } from '../../json';
import { graphFlow, request, respondBody } from '../../testing/flow-fixtures';

const branchFlow = (left: JsonValue, operator: string, right?: JsonValue) =>
  graphFlow(
    [
      { id: 'c', type: 'condition', config: right === undefined ? { left, operator } : { left, operator, right } },
      { id: 'yes', type: 'respond', config: { body: { branch: 'true' } } },
      { id: 'no', type: 'respond', config: { body: { branch: 'false' } } },
    ],
    ['start>c', 'c:true>yes', 'c:false>no'],
  );
const decide = async (left: JsonValue, operator: string, right?: JsonValue, body: unknown = {}) =>
  ((await respondBody(branchFlow(left, operator, right), { request: request({ body }) })) as { branch: string }).branch === 'true';

describe('Condition block', () => {
  it('continues by the true connection when the comparison holds and by false otherwise', async () => {
    await expect(decide('a', 'eq', 'a')).resolves.toBe(true);
    await expect(decide('a', 'eq', 'b')).resolves.toBe(false);
  });

  it('compares numbers numerically when both sides are numeric text, as query values arrive', async () => {
    await expect(decide('10', 'gt', '9')).resolves.toBe(true);
    await expect(decide('{body.n}', 'lte', '5', { n: 5 })).resolves.toBe(true);
    await expect(decide('1.0', 'eq', 1)).resolves.toBe(true);
    await expect(decide(' 2e3 ', 'gte', '2000')).resolves.toBe(true);
  });

  it('compares non-numeric text in code-point order', async () => {
    await expect(decide('10', 'lt', 'abc')).resolves.toBe(true);
    await expect(decide('pear', 'gt', 'apple')).resolves.toBe(true);
  });

  it('compares a very long digit string that is not a number as text', async () => {
    await expect(decide(`${'9'.repeat(200_000)}x`, 'gt', '10')).resolves.toBe(true);
  });

  it('answers false for ordering comparisons it cannot make', async () => {
    await expect(decide('{body.none}', 'lt', '5', {})).resolves.toBe(false);
    await expect(decide('{body.obj}', 'gt', '1', { obj: { a: 1 } })).resolves.toBe(false);
  });

  it('treats true and false as equal to the text "true" and "false"', async () => {
    await expect(decide('{body.flag}', 'eq', 'true', { flag: true })).resolves.toBe(true);
    await expect(decide('{body.flag}', 'neq', true, { flag: false })).resolves.toBe(true);
  });

  it('compares objects and lists by content', async () => {
    await expect(decide('{body.a}', 'eq', '{body.b}', { a: { x: [1] }, b: { x: [1] } })).resolves.toBe(true);
  });

  it('checks contains on text, lists and object keys', async () => {
    await expect(decide('hello world', 'contains', 'o w')).resolves.toBe(true);
    await expect(decide('{body.tags}', 'contains', '2', { tags: [1, 2] })).resolves.toBe(true);
    await expect(decide('{body.obj}', 'contains', 'key', { obj: { key: 0 } })).resolves.toBe(true);
    await expect(decide('{body.none}', 'contains', 'x', {})).resolves.toBe(false);
  });

  it('checks is_null and is_not_null without a right value', async () => {
    await expect(decide('{body.missing}', 'is_null', undefined, {})).resolves.toBe(true);
    await expect(decide('{body.empty}', 'is_null', undefined, { empty: '' })).resolves.toBe(false);
    await expect(decide('{body.zero}', 'is_not_null', undefined, { zero: 0 })).resolves.toBe(true);
  });

  it('treats null as equal only to null', async () => {
    await expect(decide('{body.none}', 'eq', null, {})).resolves.toBe(true);
    await expect(decide('{body.none}', 'eq', '', {})).resolves.toBe(false);
    await expect(decide('{body.none}', 'eq', 'null', {})).resolves.toBe(false);
  });
});
