import { chain, type FlowTemplate } from './flow-template';

export const helloTemplate: FlowTemplate = {
  title: 'Hello',
  description: 'GET /hello?name=Ada answers {"message": "Hello Ada"}: a query parameter with a default, a variable, a JSON answer.',
  endpoints: [
    {
      name: 'Hello',
      method: 'GET',
      path: '/hello',
      auth: 'none',
      query_params: [{ key: 'name', default: 'world' }],
      flow: chain([
        { id: 'greeting', type: 'set_variable', config: { name: 'greeting', value: 'Hello {params.name}' } },
        { id: 'answer', type: 'respond', config: { status: 200, body: { message: '{local.greeting}' } } },
      ]),
    },
  ],
  tryIt: { method: 'GET', path: '/hello?name=Ada', answer: { message: 'Hello Ada' } },
};
