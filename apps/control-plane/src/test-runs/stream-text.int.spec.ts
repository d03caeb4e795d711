// Stream Text in the control plane: Deploy refuses it without the text-generation integration
// (it cannot be skipped), and a test run shows its streamed answer whole. Anthropic is a
// stand-in on 127.0.0.1 streaming its SSE events, read by the real SDK in the test-run thread.
import { anthropicStreamWriter, type StandIn, startStandIn } from '@flowgate/testing';
import { startTestApp, type TestAccount, type TestApp } from '../testing/test-app';

const flow = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'talk', type: 'stream_text', position: { x: 0, y: 120 }, config: { prompt: 'A story for {params.name}', max_tokens: 200 } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'talk' }],
};

describe('Stream Text: Deploy and test runs', () => {
  const savedEnv = { ...process.env };
  let anthropic: StandIn;
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    anthropic = await startStandIn((_req, res, raw) => {
      const writer = anthropicStreamWriter(res, JSON.parse(raw).model, { input_tokens: 9, output_tokens: 5 });
      writer.start('Once');
      writer.finish([' upon', ' a time']);
    });
    Object.assign(process.env, { ANTHROPIC_BASE_URL: anthropic.url });
    t = await startTestApp((config) => ({ ...config, testRunsPerMinute: 1000 }));
    owner = await t.signup();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await anthropic.close();
    process.env = savedEnv;
  });

  async function endpointIn(name: string): Promise<{ projectId: string; endpointId: string }> {
    const project = await t.createProject(owner, name);
    const created = await t
      .http()
      .post(`/v1/projects/${project.id}/endpoints`)
      .set(owner.auth)
      .send({ name: 'Story', method: 'GET', path: '/story', auth: 'none', query_params: [{ key: 'name', default: 'Ada' }], flow })
      .expect(201);
    return { projectId: project.id, endpointId: created.body.id };
  }

  it('refuses to deploy (and to test-run) Stream Text without the text-generation integration, then deploys once it is added', async () => {
    const { projectId, endpointId } = await endpointIn('No model');
    const refused = await t.http().post(`/v1/projects/${projectId}/endpoints/${endpointId}/deploy`).set(owner.auth).expect(400);
    expect(refused.body).toMatchObject({ code: 'invalid_flow' });
    expect(refused.body.details).toContainEqual(
      expect.objectContaining({ severity: 'error', code: 'integration_missing', node_id: 'talk', message: expect.stringContaining('Stream Text (talk)') }),
    );
    const testRun = await t.http().post(`/v1/projects/${projectId}/endpoints/${endpointId}/test-runs`).set(owner.auth).send({ request: {} }).expect(400);
    expect(testRun.body.details).toContainEqual(expect.objectContaining({ code: 'integration_missing' }));

    await t.http().put(`/v1/projects/${projectId}/integrations/text-generation`).set(owner.auth).send({ provider: 'anthropic', api_key: 'sk-ant-stream-0123456789' }).expect(200);
    await t.http().post(`/v1/projects/${projectId}/endpoints/${endpointId}/deploy`).set(owner.auth).expect(200);
  });

  it('shows the streamed answer whole in a test run: the text joined and the usage, in the response and the trace', async () => {
    const { projectId, endpointId } = await endpointIn('Stories');
    await t.http().put(`/v1/projects/${projectId}/integrations/text-generation`).set(owner.auth).send({ provider: 'anthropic', api_key: 'sk-ant-stream-0123456789' }).expect(200);
    const answer = await t.http().post(`/v1/projects/${projectId}/endpoints/${endpointId}/test-runs`).set(owner.auth).send({ request: { query: { name: 'Grace' } } }).expect(200);
    const whole = { text: 'Once upon a time', usage: { input_tokens: 9, output_tokens: 5 } };
    expect(answer.body.response).toEqual({ status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: whole });
    expect(answer.body.trace).toEqual([expect.objectContaining({ node_id: 'talk', type: 'stream_text', status: 'ok', output: { status: 200, body: whole } })]);
    expect(JSON.parse(anthropic.requests.at(-1)!.body)).toMatchObject({ stream: true, messages: [{ role: 'user', content: 'A story for Grace' }] });
  });
});
