// The drafting assistant against the real PostgreSQL and Redis, with the real Anthropic SDK talking
// to a stand-in Messages API on 127.0.0.1 that answers scripted tool calls and records what it was sent.
import { type MessagesStandIn, startMessagesStandIn, waitFor } from '@flowgate/testing';
import { startTestApp, type TestAccount, type TestApp } from '../testing/test-app';

const SECRET_VALUE = 'sk-live-do-not-leak-4f8a1c';

const helloFlow = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, config: {} },
    { id: 'n1', type: 'respond', position: { x: 0, y: 160 }, config: { status: 200, body: { greeting: 'Hello {params.name}' } } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'n1', sourceHandle: null }],
};
const helloSettings = { name: 'Greet', method: 'GET', path: '/greet', auth: 'none', query_params: [{ key: 'name', default: 'world' }] };
const valid = { explanation: 'Answers a greeting with the name from the query.', settings: helloSettings, flow: helloFlow };
/** A Set Variable without its name: Save reports `required_field`. */
const broken = {
  explanation: 'First try.',
  settings: helloSettings,
  flow: {
    nodes: [...helloFlow.nodes, { id: 'n2', type: 'set_variable', position: { x: 0, y: 320 }, config: { value: 'x' } }],
    edges: [...helloFlow.edges],
  },
};

/** Two blocks without their names: more problems than `broken`. */
const worse = {
  ...broken,
  explanation: 'Worse.',
  flow: { ...broken.flow, nodes: [...broken.flow.nodes, { id: 'n3', type: 'set_variable', position: { x: 0, y: 480 }, config: { value: 'y' } }] },
};

describe('drafting assistant: POST /v1/projects/:id/assistant/drafts', () => {
  let model: MessagesStandIn;
  let t: TestApp;

  beforeAll(async () => {
    model = await startMessagesStandIn();
    t = await startTestApp((config) => ({ ...config, assistant: { ...config.assistant, apiKey: 'sk-ant-operator-0123456789', baseUrl: model.url, perHour: 3 } }));
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await model.close();
  });

  async function projectOf(owner: TestAccount): Promise<string> {
    return (await t.createProject(owner, 'Drafts')).id;
  }
  const draft = (owner: TestAccount, projectId: string, body: Record<string, unknown>) =>
    t.http().post(`/v1/projects/${projectId}/assistant/drafts`).set(owner.auth).send(body);

  it('answers a valid draft with its settings, flow, explanation and usage, and tells the model the project but no secret value', async () => {
    const owner = await t.signup();
    const projectId = await projectOf(owner);
    await t.http().put(`/v1/projects/${projectId}/secrets/PAYMENT_TOKEN`).set(owner.auth).send({ value: SECRET_VALUE }).expect(201);
    await t.http().post(`/v1/projects/${projectId}/tables`).set(owner.auth).send({ name: 'customers', columns: [{ name: 'email', type: 'text' }] }).expect(201);
    model.script('greet people', [{ toolInput: valid, usage: { input_tokens: 1500, output_tokens: 220 } }]);

    // The secret's value typed into the description is not sent either.
    const answer = await draft(owner, projectId, { prompt: `An endpoint to greet people; my token is ${SECRET_VALUE}` }).expect(200);
    expect(answer.body).toEqual({
      flow: helloFlow,
      settings: expect.objectContaining(helloSettings),
      explanation: valid.explanation,
      diagnostics: [],
      usage: { input_tokens: 1500, output_tokens: 220 },
    });

    const [sent] = model.sent('greet people');
    expect(sent?.tools).toHaveLength(1);
    const tool = sent!.tools![0]!;
    expect(sent!.tool_choice).toEqual({ type: 'tool', name: tool.name });
    const schema = JSON.stringify(tool.input_schema);
    for (const type of ['start', 'respond', 'http_request', 'query_rows', 'for_each', 'run_code']) expect(schema).toContain(`"const":"${type}"`);
    expect(schema).toContain('"Request URL"');
    expect(sent!.system).toContain('PAYMENT_TOKEN');
    expect(sent!.system).toContain('customers: email (text)');
    expect(JSON.stringify(model.sent('greet people'))).not.toContain(SECRET_VALUE);
    expect(JSON.stringify(sent!.messages)).toContain('[secret:PAYMENT_TOKEN]');
  });

  it('sends Save’s diagnostics back for a repair and answers the repaired draft, usage of both calls summed', async () => {
    const owner = await t.signup();
    const projectId = await projectOf(owner);
    model.script('repair me', [{ toolInput: broken }, { toolInput: valid }]);

    const answer = await draft(owner, projectId, { prompt: 'Greeting endpoint, repair me' }).expect(200);
    expect(answer.body).toMatchObject({ flow: helloFlow, diagnostics: [], usage: { input_tokens: 2400, output_tokens: 600 } });

    const sent = model.sent('repair me');
    expect(sent).toHaveLength(2);
    const repair = sent[1]!.messages.at(-1)!;
    expect(repair.role).toBe('user');
    expect(repair.content).toEqual([
      expect.objectContaining({ type: 'tool_result', is_error: true, content: expect.stringMatching(/required_field \(block n2, field name\): Set Variable \(n2\)/) }),
    ]);
    expect(sent[1]!.messages[1]).toMatchObject({ role: 'assistant', content: [expect.objectContaining({ type: 'tool_use', name: 'propose_endpoint' })] });
  });

  it('stops after two repair rounds and answers the best draft with the problems left', async () => {
    const owner = await t.signup();
    const projectId = await projectOf(owner);
    model.script('never right', [{ toolInput: broken }, { toolInput: worse }]);

    const answer = await draft(owner, projectId, { prompt: 'This is never right' }).expect(200);
    expect(model.sent('never right')).toHaveLength(3);
    expect(answer.body.flow).toEqual(broken.flow);
    expect(answer.body.explanation).toBe('First try.');
    expect(answer.body.diagnostics).toContainEqual(expect.objectContaining({ severity: 'error', code: 'required_field', node_id: 'n2', field: 'name' }));
    expect(answer.body.diagnostics.filter((d: { node_id: string }) => d.node_id === 'n3')).toEqual([]);
  });

  it('starts from an endpoint’s draft without changing it', async () => {
    const owner = await t.signup();
    const projectId = await projectOf(owner);
    const created = await t
      .http()
      .post(`/v1/projects/${projectId}/endpoints`)
      .set(owner.auth)
      .send({ name: 'Existing', method: 'GET', path: '/existing', flow: { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] } })
      .expect(201);
    const before = await t.http().get(`/v1/projects/${projectId}/endpoints/${created.body.id}`).set(owner.auth).expect(200);
    model.script('change the existing one', [{ toolInput: { explanation: 'Now it greets.', flow: helloFlow, settings: { query_params: [{ key: 'name', default: null }] } } }]);

    const answer = await draft(owner, projectId, { prompt: 'Please change the existing one to greet', endpoint_id: created.body.id }).expect(200);
    // Settings the model left out stay the endpoint's.
    expect(answer.body.settings).toMatchObject({ name: 'Existing', path: '/existing', query_params: [{ key: 'name', default: null }] });
    expect(model.sent('change the existing one')[0]!.system).toContain('"path":"/existing"');
    const after = await t.http().get(`/v1/projects/${projectId}/endpoints/${created.body.id}`).set(owner.auth).expect(200);
    expect(after.body).toEqual(before.body);
  });

  it('refuses bad input with 400/404 and a code, before asking the model', async () => {
    const owner = await t.signup();
    const projectId = await projectOf(owner);
    const empty = await draft(owner, projectId, { prompt: '   ' }).expect(400);
    expect(empty.body).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ path: 'prompt' })] });
    const huge = await draft(owner, projectId, { prompt: 'x'.repeat(4001) }).expect(400);
    expect(huge.body.details).toEqual([expect.objectContaining({ path: 'prompt', message: expect.stringContaining('4000') })]);
    const malformed = await draft(owner, projectId, { prompt: 'hi', endpoint_id: 'nope' }).expect(400);
    expect(malformed.body.details).toEqual([expect.objectContaining({ path: 'endpoint_id' })]);
    for (let i = 0; i < 3; i++) {
      const unknown = await draft(owner, projectId, { prompt: 'hi', endpoint_id: '00000000-0000-4000-8000-000000000000' }).expect(404);
      expect(unknown.body).toMatchObject({ code: 'endpoint_not_found' });
    }
    // None of the refusals counted against the hour's drafts (3 in this suite).
    model.script('after refusals', [{ toolInput: valid }]);
    await draft(owner, projectId, { prompt: 'A greeting after refusals' }).expect(200);
  });

  it('answers 502 assistant_failed with the provider’s reason when the model refuses', async () => {
    const owner = await t.signup();
    const projectId = await projectOf(owner);
    model.script('the model refuses', [{ status: 400, errorType: 'invalid_request_error', message: 'prompt is too long' }]);
    const answer = await draft(owner, projectId, { prompt: 'When the model refuses' }).expect(502);
    expect(answer.body).toEqual({ success: false, code: 'assistant_failed', message: expect.stringContaining('prompt is too long (HTTP 400)') });
  });

  it('answers 502 assistant_failed when the model answers without a proposal', async () => {
    const owner = await t.signup();
    const projectId = await projectOf(owner);
    model.script('just chat', [{ text: 'Sure, here is how I would do it…' }]);
    const answer = await draft(owner, projectId, { prompt: 'Let us just chat' }).expect(502);
    expect(answer.body).toMatchObject({ code: 'assistant_failed', message: expect.stringContaining('without proposing an endpoint') });
  });

  it('stops the model’s call when the caller goes away (the dashboard’s Cancel)', async () => {
    const owner = await t.signup();
    const projectId = await projectOf(owner);
    model.script('cancel me', [{ hold: true }]);
    const pending = draft(owner, projectId, { prompt: 'Then cancel me' });
    pending.end(() => undefined);
    await waitFor(() => model.sent('cancel me').length === 1, 'the model asked');
    pending.abort();
    await waitFor(() => model.closed('cancel me') === 1, 'the model call closed');
  });

  it('refuses a draft past ASSISTANT_PER_HOUR with 429 and Retry-After', async () => {
    const owner = await t.signup();
    const projectId = await projectOf(owner);
    model.script('count me', [{ toolInput: valid }]);
    for (let i = 0; i < 3; i++) await draft(owner, projectId, { prompt: 'count me' }).expect(200);
    const refused = await draft(owner, projectId, { prompt: 'count me' }).expect(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('3 assistant drafts per hour') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(model.sent('count me')).toHaveLength(3);
  });

  it('says it is available', async () => {
    const owner = await t.signup();
    const status = await t.http().get('/v1/assistant').set(owner.auth).expect(200);
    expect(status.body).toEqual({ available: true, drafts_per_hour: 3 });
  });
});

describe('drafting assistant without the operator’s key', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp((config) => ({ ...config, assistant: { ...config.assistant, apiKey: undefined } }));
  }, 120_000);
  afterAll(() => t?.close());

  it('answers 503 assistant_unavailable saying how to enable it, and says it is not available', async () => {
    const owner = await t.signup();
    const project = await t.createProject(owner);
    const refused = await t.http().post(`/v1/projects/${project.id}/assistant/drafts`).set(owner.auth).send({ prompt: 'anything' }).expect(503);
    expect(refused.body).toMatchObject({ code: 'assistant_unavailable', message: expect.stringContaining('FLOWGATE_ASSISTANT_API_KEY') });
    const status = await t.http().get('/v1/assistant').set(owner.auth).expect(200);
    expect(status.body.available).toBe(false);
  });
});
