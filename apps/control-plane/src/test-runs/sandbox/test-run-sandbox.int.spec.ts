/**
 * Test runs cannot take the control plane down: the memory bomb — a
 * 1 MiB string, then 470 case changes that each keep their output — run several at once ends
 * in the test-run threads, each answering 422 run_memory_exceeded, while another account's
 * `GET /v1/projects` is answered and the control plane keeps serving. The engine's own run
 * budget (FLOW_MAX_RUN_BYTES) is lifted here, so that the thread's heap limit is what stops it.
 */
import { waitFor } from '@flowgate/testing';
import { TestRunSandbox } from './test-run-sandbox';
import { startTestApp, type TestAccount, type TestApp } from '../../testing/test-app';

jest.setTimeout(120_000);

const node = (id: string, type: string, config: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, config });

/** 16 characters doubled 16 times (1,048,576), then 470 upper/lowercase blocks, each with its own ref. */
function memoryBomb() {
  const blocks = [
    node('s0', 'set_variable', { name: 'a', value: 'Ab'.repeat(8) }),
    ...Array.from({ length: 16 }, (_, i) => node(`d${i}`, 'set_variable', { name: 'a', value: '{local.a}{local.a}' })),
    ...Array.from({ length: 470 }, (_, i) => node(`c${i}`, 'manipulate_text', { input: '{local.a}', operation: i % 2 === 0 ? 'uppercase' : 'lowercase', ref: `r${i}` })),
    node('r', 'respond', { body: { ok: true } }),
  ];
  const ids = ['start', ...blocks.map((block) => block.id)];
  return {
    nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, ...blocks],
    edges: ids.slice(1).map((target, i) => ({ id: `e${i}`, source: ids[i]!, target })),
  };
}

describe('test runs in worker threads with a heap limit', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  let projectId: string;
  let endpointId: string;

  beforeAll(async () => {
    t = await startTestApp((config) => ({
      ...config,
      flow: { ...config.flow, timeoutMs: 60_000, limits: { ...config.flow.limits, maxRunBytes: 8 * 1024 * 1024 * 1024, cpuBudgetMs: 60_000 } },
      testRunSandbox: { threads: 2, heapMb: 64, queue: 16 },
      testRunsPerMinute: 1000,
    }));
    owner = await t.signup();
    other = await t.signup();
    await t.createProject(other, 'Quiet neighbour');
    projectId = (await t.createProject(owner, 'Bomb')).id;
    const created = await t
      .http()
      .post(`/v1/projects/${projectId}/endpoints`)
      .set(owner.auth)
      .send({ name: 'Bomb', method: 'GET', path: '/bomb', auth: 'none', query_params: [], flow: memoryBomb() })
      .expect(201);
    endpointId = created.body.id;
  });

  afterAll(() => t.close());

  const testRun = (flow?: unknown) => t.http().post(`/v1/projects/${projectId}/endpoints/${endpointId}/test-runs`).set(owner.auth).send({ request: {}, ...(flow ? { flow } : {}) });

  it('ends each of several memory bombs in its own thread (422 run_memory_exceeded) while another account is served', async () => {
    let pending = 4;
    const runs = Array.from({ length: 4 }, () => testRun().then((answer) => (pending--, answer)));
    const probe = await t.http().get('/v1/projects').set(other.auth);
    const pendingAtProbe = pending;
    const answers = await Promise.all(runs);

    expect(probe.status).toBe(200);
    expect(probe.body.items.map((project: { name: string }) => project.name)).toEqual(['Quiet neighbour']);
    expect(pendingAtProbe).toBeGreaterThan(0); // answered while bombs were still running
    for (const answer of answers)
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 422,
        body: { success: false, code: 'run_memory_exceeded', message: 'The test run used more memory than a test run may (64 MB) and was stopped' },
      });

    // The control plane is the same process, still serving; a new thread runs the next test.
    await t.http().get('/healthz').expect(200);
    const small = {
      nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, node('r', 'respond', { body: { fine: true } })],
      edges: [{ id: 'e0', source: 'start', target: 'r' }],
    };
    const after = await testRun(small).expect(200);
    expect(after.body.response).toEqual({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: { fine: true } });
  });

  it("gives a thread that comes free to another account's run before the rest of one account's backlog", async () => {
    const quietProject = await t.createProject(other, 'Quiet runs');
    const quietEndpoint = await t
      .http()
      .post(`/v1/projects/${quietProject.id}/endpoints`)
      .set(other.auth)
      .send({ name: 'Small', method: 'GET', path: '/small', auth: 'none', query_params: [], flow: memoryBomb() })
      .expect(201);
    const small = {
      nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }, node('r', 'respond', { body: { fine: true } })],
      edges: [{ id: 'e0', source: 'start', target: 'r' }],
    };
    const order: string[] = [];
    const bombs = Array.from({ length: 6 }, () => testRun().then((answer) => (order.push('bomb'), answer.status)));
    // Two running and a backlog in the account's line before the quiet run arrives (at least two
    // waiting: the six arrive one by one, and the first ones may end before the last arrives).
    await waitFor(() => t.app.get(TestRunSandbox).waitingOf(owner.id) >= 2, "the bombs in the account's line");
    const quiet = await t
      .http()
      .post(`/v1/projects/${quietProject.id}/endpoints/${quietEndpoint.body.id}/test-runs`)
      .set(other.auth)
      .send({ request: {}, flow: small });
    order.push('quiet');
    expect(quiet.status).toBe(200);
    expect(await Promise.all(bombs)).toEqual(Array(6).fill(422));
    // In one line for everyone it would come after at least four bombs; by thread time, after the first ones.
    expect(order.indexOf('quiet')).toBeLessThan(3);
  });
});

