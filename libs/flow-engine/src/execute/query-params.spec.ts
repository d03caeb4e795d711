import { codes, diagnostics, request, respondBody, respondingFlow, settings } from '../testing/flow-fixtures';

const configured = settings({ query_params: [{ key: 'name', default: 'World' }, { key: 'page', default: null }] });
const flow = respondingFlow([], { name: '{params.name}', page: '{params.page}', greeting: 'Hello {params.name}, page {params.page}.' });

describe('query parameters', () => {
  it('reads the value the request gives', async () => {
    await expect(respondBody(flow, { settings: configured, request: request({ query: 'name=Ada&page=2' }) })).resolves.toMatchObject({ name: 'Ada', page: '2' });
  });

  it('uses the default when the request gives no value', async () => {
    await expect(respondBody(flow, { settings: configured, request: request({ query: '' }) })).resolves.toMatchObject({ name: 'World' });
  });

  it('is null without a value or a default (empty text inside longer text)', async () => {
    await expect(respondBody(flow, { settings: configured, request: request({ query: 'name=Ada' }) })).resolves.toEqual({
      name: 'Ada',
      page: null,
      greeting: 'Hello Ada, page .',
    });
  });

  it('ignores query parameters the endpoint does not configure', async () => {
    const body = await respondBody(respondingFlow([], { all: '{request.headers}', name: '{params.name}' }), {
      settings: configured,
      request: request({ query: 'name=Ada&admin=true' }),
    });
    expect(JSON.stringify(body)).not.toContain('admin');
    expect(codes(diagnostics(respondingFlow([], { x: '{params.admin}' }), { settings: configured }))).toEqual(['unknown_param']);
  });

  it('keeps an explicitly empty value instead of the default', async () => {
    await expect(respondBody(flow, { settings: configured, request: request({ query: 'name=' }) })).resolves.toMatchObject({ name: '' });
  });

  it('takes the first value of a repeated parameter', async () => {
    await expect(respondBody(flow, { settings: configured, request: request({ query: 'name=a&name=b' }) })).resolves.toMatchObject({ name: 'a' });
  });

  it('delivers values as text, as they arrive in the URL', async () => {
    await expect(respondBody(flow, { settings: configured, request: request({ query: 'page=7' }) })).resolves.toMatchObject({ page: '7' });
  });
});
