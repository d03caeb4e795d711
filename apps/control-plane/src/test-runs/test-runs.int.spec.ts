// Workshop test runs through the real control plane: every trace case of docs/control-plane.md "Test runs",
// the limits, and isolation. Third parties are stand-ins on 127.0.0.1.
import { EMAIL_QUEUE_NAME } from '@flowgate/integrations';
import { SecretBox } from '@flowgate/platform';
import { Queue } from 'bullmq';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestAccount, type TestApp } from '../testing/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const node = (id: string, type: string, config: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, config });
const flowOf = (blocks: ReturnType<typeof node>[], edges?: Array<{ id: string; source: string; target: string; sourceHandle?: string }>) => {
  const ids = ['start', ...blocks.map((block) => block.id)];
  return {
    nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, ...blocks],
    edges: edges ?? ids.slice(1).map((target, i) => ({ id: `e${i}`, source: ids[i]!, target })),
  };
};

const ANTHROPIC_SECRET = 'sk-ant-test-secret-0123456789';
const SENDGRID_SECRET = 'SG.test-secret-abcdefghijklmnop';

/** Starting a control plane (and its first test-run thread) on a busy machine can take far longer than Jest's 30 s. */
const APP_START_MS = 120_000;

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

describe('POST /v1/projects/:id/endpoints/:eid/test-runs', () => {
  const savedEnv = { ...process.env };
  let t: TestApp;
  let owner: TestAccount;
  let project: { id: string };
  let anthropic: http.Server;
  const queuePrefix = `fgtest-testruns-${Math.random().toString(36).slice(2, 10)}`;
  const emailQueue = () => new Queue(EMAIL_QUEUE_NAME, { connection: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }, prefix: queuePrefix });

  const url = (endpointId: string, projectId = project.id) => `/v1/projects/${projectId}/endpoints/${endpointId}/test-runs`;
  async function endpoint(body: Json = {}): Promise<string> {
    const created = await t
      .http()
      .post(`/v1/projects/${project.id}/endpoints`)
      .set(owner.auth)
      .send({ name: 'Greet', method: 'GET', path: `/greet-${Math.random().toString(36).slice(2, 8)}`, auth: 'user', query_params: [{ key: 'name', default: 'world' }], ...body })
      .expect(201);
    return created.body.id as string;
  }
  const testRun = (endpointId: string, body: Json) => t.http().post(url(endpointId)).set(owner.auth).send(body);

  beforeAll(async () => {
    anthropic = http.createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'A poem for Ada' }],
            stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
          }),
        ),
      );
    });
    const anthropicUrl = await listen(anthropic);
    // Read when the control plane builds its ports: the stand-ins on loopback are reachable only
    // through the allow-list below, which the egress-guard case does not use (169.254.169.254).
    Object.assign(process.env, { ANTHROPIC_BASE_URL: anthropicUrl, FLOWGATE_EGRESS_ALLOW_CIDRS: '127.0.0.0/8', BULLMQ_PREFIX: queuePrefix });
    // The flows' own deadline (FLOW_TIMEOUT_MS, 15 s): a busy machine must not turn these runs into
    // timeouts; the deadline has a suite of its own below.
    t = await startTestApp((config) => ({ ...config, testRunsPerMinute: 1000 }));
    owner = await t.signup();
    project = await t.createProject(owner, 'Test runs');
  }, APP_START_MS);

  afterAll(async () => {
    await t.close();
    const queue = emailQueue();
    await queue.obliterate({ force: true });
    await queue.close();
    await new Promise((resolve) => anthropic.close(resolve));
    process.env = savedEnv;
  });

  it('runs the unsaved flow with the request and traces each block: output, branch, duration; the start node is left out', async () => {
    const id = await endpoint();
    const flow = flowOf(
      [
        node('n1', 'set_variable', { name: 'greeting', value: 'Hello {params.name}' }),
        node('up', 'manipulate_text', { input: '{local.greeting}', operation: 'uppercase', ref: 'loud' }),
        node('c1', 'condition', { left: '{request.headers.x-mood}', operator: 'eq', right: 'happy' }),
        node('yes', 'respond', { status: 201, body: { message: '{result.loud}', from: '{body.who}' } }),
        node('no', 'respond', { status: 200, body: { message: 'meh' } }),
      ],
      [
        { id: 'a', source: 'start', target: 'n1' },
        { id: 'b', source: 'n1', target: 'up' },
        { id: 'c', source: 'up', target: 'c1' },
        { id: 'd', source: 'c1', target: 'yes', sourceHandle: 'true' },
        { id: 'e', source: 'c1', target: 'no', sourceHandle: 'false' },
      ],
    );
    const answer = await testRun(id, {
      flow,
      settings: { method: 'POST' },
      request: { path: '/api' + (await t.http().get(`/v1/projects/${project.id}/endpoints/${id}`).set(owner.auth)).body.path, query: { name: 'Ada' }, headers: { 'X-Mood': 'happy' }, body: { who: 'Bob' } },
    }).expect(200);
    expect(answer.body.response).toEqual({ status: 201, headers: { 'content-type': 'application/json; charset=utf-8' }, body: { message: 'HELLO ADA', from: 'Bob' } });
    expect(answer.body.diagnostics).toEqual([]);
    expect(answer.body.duration_ms).toEqual(expect.any(Number));
    expect(answer.body.trace.map((entry: Json) => [entry.node_id, entry.status, entry.output, entry.branch])).toEqual([
      ['n1', 'ok', 'Hello Ada', undefined],
      ['up', 'ok', 'HELLO ADA', undefined],
      ['c1', 'ok', true, 'true'],
      ['yes', 'ok', { status: 201, body: { message: 'HELLO ADA', from: 'Bob' } }, undefined],
    ]);
    expect(answer.body.trace[0]).toMatchObject({ type: 'set_variable', label: 'Set Variable', duration_ms: expect.any(Number) });

    const otherWay = await testRun(id, { flow, settings: { method: 'POST' }, request: { headers: { 'x-mood': 'grumpy' } } }).expect(200);
    expect(otherWay.body.trace.map((entry: Json) => [entry.node_id, entry.branch ?? null])).toEqual([
      ['n1', null],
      ['up', null],
      ['c1', 'false'],
      ['no', null],
    ]);
  });

  it('runs the saved draft when no flow is given', async () => {
    const id = await endpoint({ flow: flowOf([node('r', 'respond', { body: { saved: '{params.name}' } })]) });
    const answer = await testRun(id, { request: {} }).expect(200);
    expect(answer.body.response.body).toEqual({ saved: 'world' });
  });

  it('skips a block whose integration is not configured, and says so', async () => {
    const id = await endpoint();
    const answer = await testRun(id, {
      flow: flowOf([node('g1', 'generate_text', { prompt: 'hi', ref: 'poem' }), node('r', 'respond', { body: { poem: '{result.poem}' } })]),
      request: {},
    }).expect(200);
    expect(answer.body.trace[0]).toEqual(expect.objectContaining({ node_id: 'g1', status: 'skipped', skipped_reason: 'integration_not_configured' }));
    expect(answer.body.trace[0]).not.toHaveProperty('output');
    expect(answer.body.response.body).toEqual({ poem: null });
  });

  it('shows an email instead of sending it (unless asked), and never shows an integration secret', async () => {
    const own = await t.createProject(owner, 'Mail');
    await t.http().put(`/v1/projects/${own.id}/integrations/email`).set(owner.auth).send({ provider: 'sendgrid', api_key: SENDGRID_SECRET, verified_domains: ['shop.test'] }).expect(200);
    await t.http().put(`/v1/projects/${own.id}/integrations/text-generation`).set(owner.auth).send({ provider: 'anthropic', api_key: ANTHROPIC_SECRET }).expect(200);
    const created = await t.http().post(`/v1/projects/${own.id}/endpoints`).set(owner.auth).send({ name: 'Mail', method: 'GET', path: '/mail', auth: 'none', query_params: [] }).expect(201);
    const flow = flowOf([
      node('g1', 'generate_text', { prompt: 'Write a poem', ref: 'poem' }),
      node('m1', 'send_email', { to: 'ada@example.com', from: 'Shop <hi@shop.test>', subject: 'Your poem', body: '{result.poem}' }),
      node('r', 'respond', { body: { poem: '{result.poem}' } }),
    ]);
    const answer = await t.http().post(url(created.body.id, own.id)).set(owner.auth).send({ flow, request: {} }).expect(200);
    expect(answer.body.trace.map((entry: Json) => [entry.node_id, entry.status, entry.skipped_reason ?? null])).toEqual([
      ['g1', 'ok', null],
      ['m1', 'skipped', 'dry_run'],
      ['r', 'ok', null],
    ]);
    expect(answer.body.trace[0].output).toBe('A poem for Ada');
    expect(answer.body.trace[1].output).toEqual({ to: 'ada@example.com', from: 'Shop <hi@shop.test>', subject: 'Your poem', body: 'A poem for Ada' });
    const text = JSON.stringify(answer.body);
    const stored = await t.prisma.integration.findMany({ where: { projectId: own.id } });
    for (const secret of [ANTHROPIC_SECRET, SENDGRID_SECRET, ...stored.map((row) => row.secretEncrypted)]) expect(text).not.toContain(secret);

    const sent = await t.http().post(url(created.body.id, own.id)).set(owner.auth).send({ flow, request: {}, send_email: true }).expect(200);
    expect(sent.body.trace[1]).toEqual(expect.objectContaining({ node_id: 'm1', status: 'ok' }));
    expect(sent.body.trace[1]).not.toHaveProperty('skipped_reason');
    const queue = emailQueue();
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    await queue.close();
    expect(jobs.filter((job) => job.data.project_id === own.id).map((job) => job.data.message.subject)).toEqual(['Your poem']);
  });

  it('treats an integration whose secret no key opens as the gateways do: not configured, skipped', async () => {
    const own = await t.createProject(owner, 'Lost key');
    await t.http().put(`/v1/projects/${own.id}/integrations/text-generation`).set(owner.auth).send({ provider: 'anthropic', api_key: ANTHROPIC_SECRET }).expect(200);
    const foreign = new SecretBox('f'.repeat(64)).encrypt(ANTHROPIC_SECRET);
    await t.prisma.integration.updateMany({ where: { projectId: own.id, kind: 'text_generation' }, data: { secretEncrypted: foreign } });
    const created = await t.http().post(`/v1/projects/${own.id}/endpoints`).set(owner.auth).send({ name: 'Poem', method: 'GET', path: '/poem', auth: 'none', query_params: [] }).expect(201);
    const answer = await t
      .http()
      .post(url(created.body.id, own.id))
      .set(owner.auth)
      .send({ flow: flowOf([node('g1', 'generate_text', { prompt: 'hi', ref: 'poem' }), node('r', 'respond', { body: { poem: '{result.poem}' } })]), request: {} })
      .expect(200);
    expect(answer.body.trace[0]).toEqual(expect.objectContaining({ node_id: 'g1', status: 'skipped', skipped_reason: 'integration_not_configured' }));
    expect(JSON.stringify(answer.body)).not.toContain(foreign);
  });

  it('keeps the egress guard: a private address is refused, shown as failed with the reason, and the flow goes on and can tell', async () => {
    const id = await endpoint();
    const answer = await testRun(id, {
      flow: flowOf([
        node('h1', 'http_request', { name: 'meta', url: 'http://169.254.169.254/latest/meta-data/', method: 'GET' }),
        node('r', 'respond', { body: { error: '{meta.error}' } }),
      ]),
      request: {},
    }).expect(200);
    expect(answer.body.trace[0]).toEqual(
      expect.objectContaining({
        node_id: 'h1',
        status: 'error',
        error_in_result: true,
        error: { code: 'egress_blocked', message: 'the request failed: flows may not reach this address' },
        output: expect.objectContaining({ status: null, error: 'egress_blocked' }),
      }),
    );
    expect(answer.body.response.body).toEqual({ error: 'egress_blocked' });
  });

  it('names the block that failed and why, and answers as the gateway would', async () => {
    const id = await endpoint();
    const answer = await testRun(id, {
      flow: flowOf([
        node('n1', 'set_variable', { name: 'raw', value: 'zz' }),
        node('x1', 'decode_text', { input: '{local.raw}', encoding: 'hex', ref: 'plain' }),
        node('r', 'respond', { body: { plain: '{result.plain}' } }),
      ]),
      request: {},
    }).expect(200);
    expect(answer.body.response.status).toBe(500);
    expect(answer.body.response.body).toEqual({ success: false, code: 'flow_error', message: expect.stringContaining('Decode Text (x1)') });
    expect(answer.body.trace).toHaveLength(2);
    expect(answer.body.trace[1]).toEqual(
      expect.objectContaining({ node_id: 'x1', status: 'error', error: { code: 'flow_error', message: answer.body.response.body.message } }),
    );
    expect(answer.body.trace[1].error.message).toMatch(/hex/);
  });

  it('cuts an output over 16 KiB of JSON to its first 16 KiB, as a string, without splitting a character', async () => {
    const id = await endpoint();
    const answer = await testRun(id, {
      flow: flowOf([node('n1', 'set_variable', { name: 'big', value: '{body.text}' }), node('r', 'respond', { body: { size: 'ok' } })]),
      settings: { method: 'POST' },
      request: { body: { text: 'é'.repeat(10_000) } },
    }).expect(200);
    const entry = answer.body.trace[0];
    expect(entry.truncated).toBe(true);
    expect(typeof entry.output).toBe('string');
    expect(Buffer.byteLength(entry.output)).toBeLessThanOrEqual(16 * 1024);
    expect(Buffer.byteLength(entry.output)).toBeGreaterThan(16 * 1024 - 4);
    expect(entry.output).toMatch(/^"é+$/);
  });

  it('refuses a flow with errors as Deploy does: 400 invalid_flow with the diagnostics', async () => {
    const id = await endpoint();
    const answer = await testRun(id, { flow: flowOf([node('n1', 'set_variable', { value: 'x' })]), request: {} }).expect(400);
    expect(answer.body).toMatchObject({ success: false, code: 'invalid_flow' });
    expect(answer.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ severity: 'error', node_id: 'n1', field: 'name' })]));
  });

  it('refuses a request the endpoint would not answer, naming the field', async () => {
    const id = await endpoint();
    const wrongMethod = await testRun(id, { request: { method: 'DELETE' } }).expect(400);
    expect(wrongMethod.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'request.method' }] });
    const wrongPath = await testRun(id, { request: { path: '/elsewhere' } }).expect(400);
    expect(wrongPath.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'request.path' }] });
    const badHeader = await testRun(id, { request: { headers: { 'bad header': 'x' } } }).expect(400);
    expect(badHeader.body.code).toBe('invalid_request');
  });

  it("answers 404 for another account's endpoint, and for an unknown one", async () => {
    const id = await endpoint();
    const stranger = await t.signup();
    const foreign = await t.http().post(url(id)).set(stranger.auth).send({ request: {} }).expect(404);
    expect(foreign.body.code).toBe('project_not_found');
    const strangersProject = await t.createProject(stranger);
    await t.http().post(`/v1/projects/${strangersProject.id}/endpoints/${id}/test-runs`).set(stranger.auth).send({ request: {} }).expect(404);
    await t.http().post(url(id)).send({ request: {} }).expect(401);
  });
});

describe('test-run limit per account', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('answers 429 with Retry-After past TEST_RUNS_PER_MINUTE, for that account only', async () => {
    t = await startTestApp((config) => ({ ...config, testRunsPerMinute: 2 }));
    const [busy, other] = [await t.signup(), await t.signup()];
    const run = async (account: TestAccount) => {
      const project = await t.createProject(account);
      const created = await t.http().post(`/v1/projects/${project.id}/endpoints`).set(account.auth).send({ name: 'x', method: 'GET', path: '/x', auth: 'none', query_params: [] });
      return () => t.http().post(`/v1/projects/${project.id}/endpoints/${created.body.id}/test-runs`).set(account.auth).send({ request: {} });
    };
    const busyRun = await run(busy);
    await busyRun().expect(200);
    await busyRun().expect(200);
    const refused = await busyRun().expect(429);
    expect(refused.body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await (await run(other))().expect(200);
  }, APP_START_MS);
});

describe('test-run deadline', () => {
  const savedEnv = { ...process.env };
  let t: TestApp;
  let owner: TestAccount;
  let hanging: http.Server;
  let hangingUrl: string;

  beforeAll(async () => {
    hanging = http.createServer(() => undefined);
    hangingUrl = await listen(hanging);
    // Only this app has a short deadline; loopback is allowed for the stand-in that never answers.
    process.env.FLOWGATE_EGRESS_ALLOW_CIDRS = '127.0.0.0/8';
    t = await startTestApp((config) => ({ ...config, flow: { ...config.flow, timeoutMs: 1500 } }));
    owner = await t.signup();
  }, APP_START_MS);
  afterAll(async () => {
    await t.close();
    process.env = savedEnv;
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
  });

  it('stops at the flow deadline (FLOW_TIMEOUT_MS) and marks the block that was running', async () => {
    const project = await t.createProject(owner);
    const created = await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send({ name: 'Slow', method: 'GET', path: '/slow', auth: 'none', query_params: [] }).expect(201);
    const answer = await t.http().post(`/v1/projects/${project.id}/endpoints/${created.body.id}/test-runs`).set(owner.auth).send({
      flow: flowOf([node('h1', 'http_request', { name: 'slow', url: `${hangingUrl}/slow`, method: 'GET' }), node('r', 'respond', { body: {} })]),
      request: {},
    }).expect(200);
    expect(answer.body.response).toMatchObject({ status: 504, body: { success: false, code: 'flow_timeout' } });
    expect(answer.body.trace).toEqual([expect.objectContaining({ node_id: 'h1', status: 'error', error: expect.objectContaining({ code: 'flow_timeout' }) })]);
  });
});
