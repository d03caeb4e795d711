import { request, respondBody, respondingFlow, runFlow, settings } from '../../testing/flow-fixtures';

const matchFlow = (pattern: string, flags = '', input = '{body.text}') =>
  respondingFlow([{ type: 'match_regex', config: { input, pattern, flags, ref: 'm' } }], { m: '{result.m}' });
const match = async (pattern: string, text: string, flags = '') =>
  ((await respondBody(matchFlow(pattern, flags), { request: request({ body: { text } }) })) as { m: Record<string, unknown> }).m;

describe('Match Regex block', () => {
  it('gives every full match, every group of every match, isMatch and named groups of the first match', async () => {
    await expect(match('(?<word>[a-z]+)-(\\d+)', 'ab-1 cd-22 x')).resolves.toEqual({
      word: 'ab',
      matches: ['ab-1', 'cd-22'],
      captures: ['ab', '1', 'cd', '22'],
      isMatch: true,
    });
  });

  it('answers isMatch false with empty lists and null groups when nothing matches', async () => {
    await expect(match('(?<digit>\\d)', 'none')).resolves.toEqual({ digit: null, matches: [], captures: [], isMatch: false });
  });

  it('gives null for a group that took no part in a match', async () => {
    await expect(match('(x)?(b)', 'b xb')).resolves.toMatchObject({ captures: [null, 'b', 'x', 'b'] });
  });

  it('accepts Go/RE2-style (?P<name>…) groups as well', async () => {
    await expect(match('(?P<year>\\d{4})', 'in 2024')).resolves.toMatchObject({ year: '2024' });
  });

  it('applies the i, m and s flags', async () => {
    await expect(match('hello', 'HeLLo', 'i')).resolves.toMatchObject({ isMatch: true });
    await expect(match('^b$', 'a\nb', 'm')).resolves.toMatchObject({ matches: ['b'] });
    await expect(match('a.b', 'a\nb', 's')).resolves.toMatchObject({ isMatch: true });
    await expect(match('a.b', 'a\nb')).resolves.toMatchObject({ isMatch: false });
  });

  it('matches by code point, so emoji count as one character', async () => {
    await expect(match('^.$', '😀')).resolves.toMatchObject({ isMatch: true });
  });

  it('finishes a catastrophic-backtracking pattern on 50,000 characters with the right answer', async () => {
    await expect(match('(a+)+$', `${'a'.repeat(50_000)}!`)).resolves.toEqual({ matches: [], captures: [], isMatch: false });
    const matched = await match('(a+)+$', 'a'.repeat(50_000));
    expect(matched.isMatch).toBe(true);
    expect((matched.matches as string[])[0]).toHaveLength(50_000);
  });

  it('compiles a pattern that comes from a query parameter at run time', async () => {
    const flow = respondingFlow([{ type: 'match_regex', config: { input: 'order 42', pattern: '{params.p}', ref: 'm' } }], { found: '{result.m.matches}' });
    const endpoint = settings({ query_params: [{ key: 'p', default: null }] });
    await expect(respondBody(flow, { settings: endpoint, request: request({ query: 'p=%5Cd%2B' }) })).resolves.toEqual({ found: ['42'] });
  });

  it('turns a run-time pattern the engine refuses into a flow error with its reason', async () => {
    const flow = respondingFlow([{ id: 'rx', type: 'match_regex', config: { input: 'aa', pattern: '{params.p}', ref: 'm' } }], {});
    const endpoint = settings({ query_params: [{ key: 'p', default: null }] });
    const result = await runFlow(flow, { settings: endpoint, request: request({ query: 'p=(a)%5C1' }) });
    expect(result).toMatchObject({ type: 'error', status: 500, code: 'flow_error', node_id: 'rx' });
    expect(result.type === 'error' && result.message).toMatch(/^Match Regex \(rx\): the pattern is not accepted by the linear-time regex engine: .*backreferences/);
  });

  it('refuses a run-time pattern whose text is already over the size limit without handing it to another thread', async () => {
    const flow = respondingFlow([{ id: 'rx', type: 'match_regex', config: { input: 'aaz', pattern: '{params.p}', ref: 'm' } }], {});
    const endpoint = settings({ query_params: [{ key: 'p', default: null }] });
    const match = jest.fn(() => Promise.reject(new Error('the pool was asked')));
    const pattern = encodeURIComponent('((.)|b){0,1000}z'.repeat(8));
    const result = await runFlow(flow, { settings: endpoint, request: request({ query: `p=${pattern}` }), ports: { regex: { match } } });
    expect(result).toMatchObject({ type: 'error', status: 500, code: 'flow_error', node_id: 'rx' });
    expect(result.type === 'error' && result.message).toMatch(/^Match Regex \(rx\): the pattern is too large to run: it compiles to at least 48,008 instructions; the limit is 3,000/);
    expect(match).not.toHaveBeenCalled();
  });

  it('keeps a group named __proto__ as plain data', async () => {
    const result = await match('(?<__proto__>x)', 'x');
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toContain('__proto__');
  });
});
