import { chain, type FlowTemplate } from './flow-template';

export const proxyWithSecretTemplate: FlowTemplate = {
  title: 'Proxy with a secret',
  description: 'GET /proxy calls a third-party API with the key kept in the secret API_TOKEN (never in the flow) and answers with what it said.',
  needs: 'a secret named API_TOKEN (Settings → Secrets) and the API’s address in Request URL',
  endpoints: [
    {
      name: 'Proxy',
      method: 'GET',
      path: '/proxy',
      auth: 'none',
      query_params: [],
      flow: chain([
        {
          id: 'call',
          type: 'http_request',
          config: { name: 'upstream', url: 'https://api.example.com/items', method: 'GET', headers: [{ key: 'Authorization', value: 'Bearer {secrets.API_TOKEN}' }] },
        },
        { id: 'answer', type: 'respond', config: { status: 200, body: { status: '{result.upstream.status}', data: '{result.upstream.body}', error: '{result.upstream.error}' } } },
      ]),
    },
  ],
  // The test's gateway may not reach the internet: the answer says what happened either way.
  tryIt: { method: 'GET', path: '/proxy', answer: {} },
};
