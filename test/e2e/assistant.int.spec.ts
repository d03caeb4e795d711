/**
 * The drafting assistant end to end: a control plane process whose real Anthropic SDK talks to a
 * stand-in Messages API, a gateway process; the draft is saved and deployed through the REST API
 * as the Workshop would, and answers through the gateway.
 */
import { randomBytes } from 'node:crypto';
import { type AppStack, call, type MessagesStandIn, request, startAppStack, startMessagesStandIn, waitFor } from '@flowgate/testing';

jest.setTimeout(180_000);

const suffix = randomBytes(4).toString('hex');
const subdomain = `draft-${suffix}`;
let stack: AppStack;
let model: MessagesStandIn;
let api: string;
let gateway: string;
let token: string;
let projectId: string;

const cp = (path: string, options: Parameters<typeof request>[1] = {}) => request(`${api}${path}`, { token, ...options });

const proposal = {
  explanation: 'Reads the name from the body, shouts it, and answers a greeting.',
  settings: { name: 'Shout', method: 'POST', path: '/shout', auth: 'none', query_params: [] },
  flow: {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, config: {} },
      { id: 'n1', type: 'manipulate_text', position: { x: 0, y: 160 }, config: { input: '{body.name}', operation: 'uppercase', ref: 'loud' } },
      { id: 'n2', type: 'respond', position: { x: 0, y: 320 }, config: { status: 200, body: { greeting: 'HELLO {local.loud}' } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1', sourceHandle: null },
      { id: 'e2', source: 'n1', target: 'n2', sourceHandle: null },
    ],
  },
};

beforeAll(async () => {
  model = await startMessagesStandIn();
  model.script('shouts the name', [{ toolInput: proposal }]);
  stack = await startAppStack({ controlPlaneEnv: { FLOWGATE_ASSISTANT_API_KEY: 'sk-ant-operator-e2e-0123456789', ANTHROPIC_BASE_URL: model.url } });
  api = `${stack.controlPlaneUrl}/v1`;
  gateway = stack.gatewayUrl;
  token = (await request(`${api}/auth/signup`, { method: 'POST', body: { email: `assistant-${suffix}@example.com`, password: 'correct horse battery' } })).body.token;
  projectId = (await cp('/projects', { method: 'POST', body: { name: 'Drafted', subdomain } })).body.id;
});

afterAll(async () => {
  await stack?.stop();
  await model?.close();
});

test('a draft, saved and deployed through the REST API, answers through the gateway', async () => {
  const created = await cp(`/projects/${projectId}/endpoints`, { method: 'POST', body: { name: 'New endpoint', method: 'GET', path: '/new' } });
  expect(created.status).toBe(201);
  const endpointId = created.body.id as string;

  const drafted = await cp(`/projects/${projectId}/assistant/drafts`, { method: 'POST', body: { prompt: 'An endpoint that shouts the name it is sent', endpoint_id: endpointId } });
  expect(drafted).toMatchObject({ status: 200, body: { diagnostics: [], explanation: proposal.explanation } });
  // Nothing was saved: the endpoint still holds its own draft.
  expect((await cp(`/projects/${projectId}/endpoints/${endpointId}`)).body).toMatchObject({ name: 'New endpoint', path: '/new', status: 'draft' });

  const saved = await cp(`/projects/${projectId}/endpoints/${endpointId}`, { method: 'PUT', body: { ...drafted.body.settings, flow: drafted.body.flow } });
  expect(saved).toMatchObject({ status: 200, body: { path: '/shout', diagnostics: [] } });
  expect((await cp(`/projects/${projectId}/endpoints/${endpointId}/deploy`, { method: 'POST' })).status).toBe(200);

  const answer = await waitFor(async () => {
    const response = await call(gateway, `${subdomain}.localhost`, '/shout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'ada' }) });
    return response.status === 200 ? response : undefined;
  }, 'the gateway serving the drafted endpoint');
  expect(answer.json).toEqual({ greeting: 'HELLO ADA' });
});
