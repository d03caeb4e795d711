import { graphFlow, request, respondBody, respondingFlow, runFlow, settings } from '../../testing/flow-fixtures';

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

  describe('operations', () => {
    const op = (name: string, operation: string, value: unknown) => ({ type: 'set_variable', config: { name, value, operation } as never });

    it('appends to a list, creating it', async () => {
      const flow = respondingFlow([op('list', 'append', 'a'), op('list', 'append', { b: '{body.b}' })], { list: '{local.list}' });
      await expect(respondBody(flow, { request: request({ body: { b: 2 } }) })).resolves.toEqual({ list: ['a', { b: 2 }] });
    });

    it('increments from 0, accepting numeric text', async () => {
      const flow = respondingFlow([op('n', 'increment', 2), op('n', 'increment', '{body.by}')], { n: '{local.n}' });
      await expect(respondBody(flow, { request: request({ body: { by: '3.5' } }) })).resolves.toEqual({ n: 5.5 });
    });

    it('shallow-merges objects, later keys winning', async () => {
      const flow = respondingFlow([setVar('o', { a: 1, nested: { x: 1 } }), op('o', 'merge', { nested: { y: 2 }, b: 2 })], { o: '{local.o}' });
      await expect(respondBody(flow)).resolves.toEqual({ o: { a: 1, nested: { y: 2 }, b: 2 } });
    });

    it('fails with a clear message when the value does not fit the operation', async () => {
      const flow = respondingFlow([setVar('t', 'text'), op('t', 'append', 1)], {});
      await expect(runFlow(flow)).resolves.toMatchObject({ status: 500, code: 'flow_error', message: 'Set Variable (n2): t is not a list, so Append cannot add to it' });
      const notNumber = respondingFlow([op('n', 'increment', 'many')], {});
      await expect(runFlow(notNumber)).resolves.toMatchObject({ message: expect.stringContaining('Value must be a number') });
    });

    it('acts on the iteration’s scope inside a loop: each iteration starts from the value before the loop', async () => {
      const flow = graphFlow(
        [
          { id: 'v', type: 'set_variable', config: { name: 'tags', value: ['base'] } },
          { id: 'f', type: 'for_each', config: { list: '{body.items}', collect: '{local.tags}', ref: 'out' } },
          { id: 'a', ...op('tags', 'append', '{local.item}') },
          { id: 'r', type: 'respond', config: { body: { out: '{local.out}', after: '{local.tags}' } } },
        ],
        ['start>v', 'v>f', 'f:each>a', 'f:done>r'],
      );
      await expect(respondBody(flow, { request: request({ body: { items: ['x', 'y'] } }) })).resolves.toEqual({ out: [['base', 'x'], ['base', 'y']], after: ['base'] });
    });
  });
});
