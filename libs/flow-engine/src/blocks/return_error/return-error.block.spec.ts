import { diagnostics, linearFlow, request, runFlow } from '../../testing/flow-fixtures';

describe('Return Error block', () => {
  it('ends the flow with its status, a code derived from the status and the templated message', async () => {
    const flow = linearFlow([{ id: 'err', type: 'return_error', config: { status: 404, message: 'No order {body.id}' } }]);
    await expect(runFlow(flow, { request: request({ body: { id: 9 } }) })).resolves.toEqual({
      type: 'error',
      status: 404,
      code: 'not_found',
      message: 'No order 9',
      node_id: 'err',
    });
  });

  it.each([
    [400, 'bad_request'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [409, 'conflict'],
    [422, 'unprocessable_entity'],
    [429, 'too_many_requests'],
    [500, 'internal_error'],
    [502, 'bad_gateway'],
    [503, 'unavailable'],
    [418, 'client_error'],
    [599, 'server_error'],
  ])('derives the code of status %i as %s', async (status, code) => {
    await expect(runFlow(linearFlow([{ type: 'return_error', config: { status, message: 'x' } }]))).resolves.toMatchObject({ status, code });
  });

  it('uses its own code when one is configured', async () => {
    const flow = linearFlow([{ type: 'return_error', config: { status: 402, message: 'Top up first', code: 'insufficient_credit' } }]);
    await expect(runFlow(flow)).resolves.toMatchObject({ status: 402, code: 'insufficient_credit' });
  });

  it('defaults to 400', async () => {
    await expect(runFlow(linearFlow([{ type: 'return_error', config: { message: 'x' } }]))).resolves.toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('accepts only 4xx and 5xx statuses and snake_case codes', () => {
    expect(diagnostics(linearFlow([{ type: 'return_error', config: { status: 200, message: 'x' } }]))).toEqual([expect.objectContaining({ field: 'status' })]);
    expect(diagnostics(linearFlow([{ type: 'return_error', config: { status: 400, message: 'x', code: 'Bad Code' } }]))).toEqual([expect.objectContaining({ field: 'code' })]);
  });
});
