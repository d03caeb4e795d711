import { codes, diagnostics, linearFlow, request, runFlow } from '../../testing/flow-fixtures';

describe('Respond block', () => {
  it('answers with its status and JSON body', async () => {
    const flow = linearFlow([{ type: 'respond', config: { status: 201, body: { id: '{body.id}', created: true } } }]);
    await expect(runFlow(flow, { request: request({ body: { id: 7 } }) })).resolves.toEqual({ type: 'response', status: 201, body: { id: 7, created: true } });
  });

  it('answers 200 with an empty object by default', async () => {
    await expect(runFlow(linearFlow([{ type: 'respond' }]))).resolves.toEqual({ type: 'response', status: 200, body: {} });
  });

  it('answers with any JSON, also a list or a lone reference', async () => {
    await expect(runFlow(linearFlow([{ type: 'respond', config: { body: ['{body.a}', 2] } }]), { request: request({ body: { a: 1 } }) })).resolves.toMatchObject({ body: [1, 2] });
    await expect(runFlow(linearFlow([{ type: 'respond', config: { body: '{body}' } }]), { request: request({ body: { a: 1 } }) })).resolves.toMatchObject({ body: { a: 1 } });
  });

  it('ends the flow: a flow that ends without it answers 200 {}', async () => {
    const flow = linearFlow([{ type: 'set_variable', config: { name: 'x', value: '1' } }]);
    await expect(runFlow(flow)).resolves.toEqual({ type: 'response', status: 200, body: {} });
  });

  it('refuses a status outside 200–599 or that is not a number', () => {
    expect(diagnostics(linearFlow([{ type: 'respond', config: { status: 700 } }]))).toEqual([
      expect.objectContaining({ code: 'invalid_field', field: 'status', message: 'Respond (n1): Status must be at most 599.' }),
    ]);
    expect(diagnostics(linearFlow([{ type: 'respond', config: { status: 'ok' } }]))).toEqual([
      expect.objectContaining({ code: 'invalid_field', field: 'status', message: 'Respond (n1): Status must be a number.' }),
    ]);
  });

  it('gives a fresh body object to every request', async () => {
    const flow = linearFlow([{ type: 'respond', config: { body: { n: '{body.n}' } } }]);
    const first = await runFlow(flow, { request: request({ body: { n: 1 } }) });
    const second = await runFlow(flow, { request: request({ body: { n: 2 } }) });
    expect([first.type === 'response' && first.body, second.type === 'response' && second.body]).toEqual([{ n: 1 }, { n: 2 }]);
    expect(codes(diagnostics(flow))).toEqual([]);
  });
});
