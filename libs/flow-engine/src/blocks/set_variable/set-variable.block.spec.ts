import { graphFlow, request, respondBody, respondingFlow, settings } from '../../testing/flow-fixtures';

const setVar = (name: string, value: unknown) => ({ type: 'set_variable', config: { name, value } as never });

describe('Set Variable block', () => {
  it('stores a value readable as {local.NAME}', async () => {
    const endpoint = settings({ query_params: [{ key: 'name', default: 'World' }] });
    const flow = respondingFlow([setVar('greeting', 'Hello {params.name}')], { message: '{local.greeting}' });
    await expect(respondBody(flow, { settings: endpoint, request: request({ query: 'name=Ada' }) })).resolves.toEqual({ message: 'Hello Ada' });
  });

  it('lets a later block with the same name override the value', async () => {
    const flow = respondingFlow([setVar('x', 'first'), setVar('x', '{local.x} then second')], { x: '{local.x}' });
    await expect(respondBody(flow)).resolves.toEqual({ x: 'first then second' });
  });

  it('lets any block result with the same name override a variable', async () => {
    const flow = respondingFlow([setVar('x', 'abc'), { type: 'manipulate_text', config: { input: '{local.x}', operation: 'uppercase', ref: 'x' } }], { x: '{local.x}' });
    await expect(respondBody(flow)).resolves.toEqual({ x: 'ABC' });
  });

  it('stores numbers, booleans, null and JSON with their types', async () => {
    const flow = respondingFlow([setVar('n', 3), setVar('b', true), setVar('z', null), setVar('o', { list: ['{body.a}', 2] })], { all: ['{local.n}', '{local.b}', '{local.z}', '{local.o}'] });
    await expect(respondBody(flow, { request: request({ body: { a: 1 } }) })).resolves.toEqual({ all: [3, true, null, { list: [1, 2] }] });
  });

  it('keeps the type of a lone reference', async () => {
    const flow = respondingFlow([setVar('data', '{body.data}')], { first: '{local.data.items.0}' });
    await expect(respondBody(flow, { request: request({ body: { data: { items: [{ id: 1 }] } } }) })).resolves.toEqual({ first: { id: 1 } });
  });

  it('does not keep variables between requests', async () => {
    const flow = graphFlow(
      [
        { id: 'c', type: 'condition', config: { left: '{body.set}', operator: 'eq', right: true } },
        { id: 's', ...setVar('x', 'set') },
        { id: 'r', type: 'respond', config: { body: { x: '{local.x}' } } },
      ],
      ['start>c', 'c:true>s', 'c:false>r', 's>r'],
    );
    await expect(respondBody(flow, { request: request({ body: { set: true } }) })).resolves.toEqual({ x: 'set' });
    await expect(respondBody(flow, { request: request({ body: { set: false } }) })).resolves.toEqual({ x: null });
  });
});
