/**
 * Reproductions of abuses that once took a gateway down, against a real gateway (Redis, Kafka, worker threads): a regular
 * expression small to write but huge to run, and many values under the value cap that add up.
 * No timing thresholds: what is asserted is answers, their order, and that the process lives.
 */
import type { PublishedProject } from '@flowgate/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { compileFlow } from '@flowgate/flow-engine';
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { type NoisyNeighbours, startNoisyNeighbours } from '../testing/noisy-neighbours';
import { type Block, call, type CallResult, DEPLOYMENT_NODE_FLAGS, type GatewayProcess, linearFlow, publishedRoute, respond, spawnGateway } from '@flowgate/testing';

jest.setTimeout(300_000);

const ISSUE_INPUT = `${'a'.repeat(4094)}z`;
const matchRegex = (pattern: string): Block => ({ type: 'match_regex', config: { input: '{local.a}', pattern, flags: 's', ref: 'm' } });
const setVariable = (name: string, value: string): Block => ({ type: 'set_variable', config: { name, value } });

/** 16 characters doubled 16 times (1 Mi characters), then case changes each kept under its own name. */
const keepingBlocks = (changes: number): Block[] => [
  setVariable('v', 'abcdefghijklmnop'),
  ...Array.from({ length: 16 }, () => setVariable('v', '{local.v}{local.v}')),
  ...Array.from({ length: changes }, (_, index) => ({
    type: 'manipulate_text',
    config: { input: '{local.v}', operation: index % 2 === 0 ? 'uppercase' : 'lowercase', ref: `r${index + 1}` },
  })),
  respond({ done: true }),
];

describe('isolation: a regex small to write and huge to run', () => {
  let projects: NoisyNeighbours;
  let gateway: Gateway;

  beforeAll(async () => {
    projects = await startNoisyNeighbours({
      noisy: (startedBlock) => [
        publishedRoute({
          path: '/heavy',
          blocks: [
            // Tells the test when the heavy flow is running.
            startedBlock,
            setVariable('a', ISSUE_INPUT),
            // 2,403 instructions (under the cap) × 4,095 characters: ~10^7 units, far over the loop's budget.
            matchRegex('((.)|b){0,300}z'),
            respond({ found: '{result.m.matches}' }),
          ],
        }),
        publishedRoute({
          path: '/dynamic',
          query_params: [{ key: 'p', default: null }],
          blocks: [setVariable('a', ISSUE_INPUT), { type: 'match_regex', config: { input: '{local.a}', pattern: '{params.p}', flags: 's', ref: 'm' } }, respond({ found: '{result.m.isMatch}' })],
        }),
      ],
    });
    // Worker threads run at nice +10: on a busy machine their work takes many times longer.
    gateway = await startGateway({ FLOW_TIMEOUT_MS: '100000', FLOW_WORKER_TASK_MS: '100000' });
  });

  afterAll(async () => {
    await gateway?.close();
    await projects?.close();
  });

  const ping = (): Promise<CallResult> => call(gateway.url, `${projects.quiet.subdomain}.localhost`, '/ping');

  it("refuses the costly-pattern flow at deploy: the pattern's program is over the cap (diagnostic naming the block and field)", () => {
    const flow = linearFlow([setVariable('a', ISSUE_INPUT), matchRegex('((.)|b){0,1000}z'), matchRegex('((.)|b){0,1000}z'), matchRegex('((.)|b){0,1000}z'), respond({})]);
    const result = compileFlow({ flow, settings: { name: 'x', method: 'GET', path: '/x', auth: 'none', query_params: [] } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.diagnostics.map(({ code, node_id, field }) => ({ code, node_id, field }))).toEqual([
      { code: 'regex_too_large', node_id: 'n2', field: 'pattern' },
      { code: 'regex_too_large', node_id: 'n3', field: 'pattern' },
      { code: 'regex_too_large', node_id: 'n4', field: 'pattern' },
    ]);
  });

  it('refuses the same pattern arriving at run time with a flow error naming the block', async () => {
    const answer = await call(gateway.url, `${projects.noisy.subdomain}.localhost`, `/dynamic?p=${encodeURIComponent('((.)|b){0,1000}z')}`);
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({
      success: false,
      code: 'flow_error',
      message:
        'Match Regex (n2): the pattern is too large to run: it compiles to at least 6,001 instructions; the limit is 3,000 (counted repetitions such as {0,1000} multiply the size of what they repeat)',
    });
  });

  it('matches a pattern under the cap whose cost is over the budget off the event loop, answering another project meanwhile', async () => {
    const running = projects.whenStarted();
    const order: string[] = [];
    const heavy = call(gateway.url, `${projects.noisy.subdomain}.localhost`, '/heavy').then((answer) => (order.push('heavy'), answer));
    await running;
    const probe = await ping();
    order.push('probe');
    const answer = await heavy;
    expect(probe.json).toEqual({ pong: true });
    expect(order).toEqual(['probe', 'heavy']);
    expect(answer.json).toEqual({ found: [`${'a'.repeat(300)}z`] });
  });
});

describe('isolation: bodies sent only to be refused', () => {
  let projects: NoisyNeighbours;
  let gateway: Gateway;

  beforeAll(async () => {
    projects = await startNoisyNeighbours({ noisy: [publishedRoute({ path: '/take', method: 'POST', blocks: [respond({ took: true })] })] });
    gateway = await startGateway({ GATEWAY_MAX_BODY_BYTES: '1024' });
  });

  afterAll(async () => {
    await gateway?.close();
    await projects?.close();
  });

  /** Twelve bodies over the limit of the noisy project sent together, then a request of the quiet one: the order they were answered in. */
  async function burst(): Promise<{ order: string[]; refusals: CallResult[]; probe: CallResult }> {
    const order: string[] = [];
    const body = JSON.stringify({ text: 'x'.repeat(4096) });
    const refusals = Array.from({ length: 12 }, () =>
      call(gateway.url, `${projects.noisy.subdomain}.localhost`, '/take', { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        (answer) => (order.push('refused'), answer),
      ),
    );
    const probe = await call(gateway.url, `${projects.quiet.subdomain}.localhost`, '/ping');
    order.push('probe');
    return { order, refusals: await Promise.all(refusals), probe };
  }

  it('answers a project that keeps sending bodies to be refused at a slower pace while another is served, each refusal still a 413 with its code', async () => {
    // A burst is seen (twelve refusals beside another project's request) when its 100 ms window
    // ends; the burst after it is held. Two before, so that one falls in a window of its own.
    for (let seen = 0; seen < 2; seen++) {
      await burst();
      await sleep(150);
    }
    const { order, refusals, probe } = await burst();
    expect(probe.json).toEqual({ pong: true });
    // The refusals, sent first, leave one at a time: the quiet project's answer overtakes them.
    expect(order.indexOf('probe')).toBeLessThan(order.length - 1);
    for (const answer of refusals) {
      expect(answer.status).toBe(413);
      expect(answer.json).toEqual({ success: false, code: 'payload_too_large', message: 'Request body exceeds the limit of 1024 bytes' });
      expect(answer.headers.connection).toBe('close');
    }
  });
});

describe('isolation: memory of runs (FLOW_MAX_RUN_BYTES, heap admission)', () => {
  let projects: NoisyNeighbours;

  beforeAll(async () => {
    projects = await startNoisyNeighbours({ noisy: [publishedRoute({ path: '/keep', blocks: keepingBlocks(470) })] });
  });

  afterAll(async () => {
    await projects?.close();
  });

  /** `count` concurrent requests of the keep-everything flow and one of the quiet project while they run. */
  async function flood(gateway: GatewayProcess, count: number): Promise<{ answers: CallResult[]; probe: CallResult }> {
    const requests = Array.from({ length: count }, () => call(gateway.url, `${projects.noisy.subdomain}.localhost`, '/keep'));
    const probe = await call(gateway.url, `${projects.quiet.subdomain}.localhost`, '/ping');
    return { answers: await Promise.all(requests), probe };
  }

  it("answers 12 concurrent runs of the keep-everything flow with 422 run_memory_exceeded naming the block, on a gateway with the deployment's flags", async () => {
    const gateway = await spawnGateway({}, DEPLOYMENT_NODE_FLAGS);
    try {
      const { answers, probe } = await flood(gateway, 12);
      expect(probe.json).toEqual({ pong: true });
      for (const answer of answers) {
        expect(answer.status).toBe(422);
        expect(answer.json).toEqual({
          success: false,
          code: 'run_memory_exceeded',
          message: 'Manipulate Text (n33): the values this run keeps would take at least 35,651,584 bytes; the limit (FLOW_MAX_RUN_BYTES) is 33,554,432',
        });
      }
      expect(gateway.child.exitCode).toBeNull();
    } finally {
      await gateway.stop();
    }
  });

  it('refuses new runs of the project holding the most with 503 unavailable + Retry-After when the heap runs high, and stays up', async () => {
    // A heap of 160 MB: 24 runs of 32 MiB each (16 MiB of one-byte text) would need 400 MB.
    const gateway = await spawnGateway({ GATEWAY_HEAP_HIGH_PERCENT: '40' }, [...DEPLOYMENT_NODE_FLAGS, '--max-old-space-size=160']);
    try {
      const { answers, probe } = await flood(gateway, 24);
      expect(probe.json).toEqual({ pong: true });
      for (const answer of answers) {
        if (answer.status === 503) {
          expect(answer.json).toMatchObject({ success: false, code: 'unavailable' });
          expect(answer.headers['retry-after']).toBe('1');
        } else expect(answer.json).toMatchObject({ success: false, code: 'run_memory_exceeded' });
      }
      expect(answers.some((answer) => answer.status === 503)).toBe(true);
      expect(gateway.child.exitCode).toBeNull();
      // Once the runs ended, the project is served again.
      const again = await call(gateway.url, `${projects.noisy.subdomain}.localhost`, '/keep');
      expect(again.json).toMatchObject({ code: 'run_memory_exceeded' });
    } finally {
      await gateway.stop();
    }
  });
});

describe('isolation: the heavy-work pool shared between projects', () => {
  let projects: NoisyNeighbours;
  /** Matched in a worker: ~4 × 10^7 units of work each (2,035 instructions × 20,000 characters). */
  const HOG_TEXT = `${'a'.repeat(19_999)}z`;
  /** An ordinary pattern on 8 KB: over the event loop's budget, so it goes to the pool too. */
  const FIND_TEXT = 'name@example '.repeat(630);

  beforeAll(async () => {
    projects = await startNoisyNeighbours({
      noisy: (startedBlock) => [
        publishedRoute({
          path: '/hog',
          method: 'POST',
          blocks: [startedBlock, { type: 'match_regex', config: { input: '{body.t}', pattern: '.{0,1000}z', flags: 's', ref: 'm' } }, respond({ found: '{result.m.isMatch}' })],
        }),
      ],
      quiet: [
        publishedRoute({
          path: '/find',
          method: 'POST',
          blocks: [{ type: 'match_regex', config: { input: '{body.t}', pattern: '[a-z]+@[a-z]+', ref: 'm' } }, respond({ first: '{result.m.matches.0}' })],
        }),
      ],
    });
  });

  afterAll(async () => {
    await projects?.close();
  });

  const post = (gateway: Gateway, project: PublishedProject, path: string, text: string): Promise<CallResult> =>
    call(gateway.url, `${project.subdomain}.localhost`, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t: text }) });

  it("gives another project's task the thread after one of a backlog, not after all of it", async () => {
    // Deadlines far away: worker threads run at nice +10, slow on a busy machine.
    const gateway = await startGateway({ FLOW_WORKER_THREADS: '1', FLOW_TIMEOUT_MS: '200000', FLOW_WORKER_TASK_MS: '200000' });
    try {
      const allStarted = projects.whenStarted(3);
      const order: string[] = [];
      const hogs = [1, 2, 3].map(() => post(gateway, projects.noisy, '/hog', HOG_TEXT).then(() => order.push('noisy')));
      await allStarted;
      const find = await post(gateway, projects.quiet, '/find', FIND_TEXT);
      order.push('quiet');
      await Promise.all(hogs);
      expect(find.json).toEqual({ first: 'name@example' });
      // Under one queue for everyone the quiet task would have waited for all three.
      expect(order.indexOf('quiet')).toBeLessThan(2);
    } finally {
      await gateway.close();
    }
  });

  it('stops a task at FLOW_WORKER_TASK_MS, terminating its thread, and serves the next task on a new one', async () => {
    const gateway = await startGateway({ FLOW_WORKER_THREADS: '1', FLOW_WORKER_TASK_MS: '2000', FLOW_TIMEOUT_MS: '100000' });
    try {
      // 2,035 instructions × 1,000,000 characters: far more than two seconds of matching.
      const hog = await post(gateway, projects.noisy, '/hog', `${'a'.repeat(999_999)}z`);
      expect(hog.status).toBe(500);
      expect(hog.json).toEqual({
        success: false,
        code: 'flow_error',
        message: 'Match Regex (n2): gateway: the work ran longer than 2000 ms on a worker thread and was stopped',
      });
      const find = await post(gateway, projects.quiet, '/find', FIND_TEXT);
      expect(find.json).toEqual({ first: 'name@example' });
    } finally {
      await gateway.close();
    }
  });
});
