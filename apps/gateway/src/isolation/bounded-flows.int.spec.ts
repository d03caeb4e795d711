/**
 * One project's flow must not stall the gateway for the others: the
 * reproductions of flows that once froze it answer with a clear error, and a long flow lets another project's request
 * through while it runs. No timing thresholds: what is asserted is order and answers.
 */
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { type NoisyNeighbours, startNoisyNeighbours } from '../testing/noisy-neighbours';
import { bandedPng, type Block, call, type CallResult, publishedRoute, respond, startStandIn } from '@flowgate/testing';

jest.setTimeout(60_000);

const setVariable = (value: string): Block => ({ type: 'set_variable', config: { name: 'v', value } });
const changeCase = (index: number): Block => ({ type: 'manipulate_text', config: { input: '{local.v}', operation: index % 2 === 0 ? 'uppercase' : 'lowercase', ref: 'v' } });

/** The value-doubling flow: 1 + 24 doublings + 80 case changes + Respond = 106 blocks. */
const doubling: Block[] = [
  setVariable('{body.s}'),
  ...Array.from({ length: 24 }, () => setVariable('{local.v}{local.v}')),
  ...Array.from({ length: 80 }, (_, index) => changeCase(index)),
  respond({ v: '{local.v}' }),
];

describe('bounded flows: one project cannot stall another', () => {
  let projects: NoisyNeighbours;
  let gateway: Gateway;

  beforeAll(async () => {
    projects = await startNoisyNeighbours({
      noisy: (startedBlock) => [
        publishedRoute({ path: '/double', method: 'POST', blocks: doubling }),
        publishedRoute({
          path: '/match',
          method: 'POST',
          blocks: [{ type: 'match_regex', config: { input: '{body.t}', pattern: '{body.p}', flags: 'i', ref: 'm' } }, respond({ found: '{result.m.isMatch}' })],
        }),
        publishedRoute({
          path: '/long',
          method: 'POST',
          // The first block tells the test when the long flow is running.
          blocks: [startedBlock, setVariable('{body.s}'), ...Array.from({ length: 150 }, (_, index) => changeCase(index)), respond({ length: '{local.v}' })],
        }),
        publishedRoute({
          path: '/blur',
          method: 'POST',
          blocks: [{ type: 'manipulate_image', config: { image_url: '{body.url}', operation: 'blur', value: 40, ref: 'out' } }, respond({ url: '{result.out}' })],
        }),
      ],
    });
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
    await projects?.close();
  });

  const post = (path: string, body: unknown): Promise<CallResult> =>
    call(gateway.url, `${projects.noisy.subdomain}.localhost`, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const ping = (): Promise<CallResult> => call(gateway.url, `${projects.quiet.subdomain}.localhost`, '/ping');

  it('answers the value-doubling flow with 422 value_too_large naming the block, and serves another project meanwhile', async () => {
    const [abusive, probe] = await Promise.all([post('/double', { s: 'x'.repeat(16) }), ping()]);
    expect(abusive.status).toBe(422);
    expect(abusive.json).toEqual({
      success: false,
      code: 'value_too_large',
      message: 'Set Variable (n18): the text would be at least 2,097,152 characters; the limit is 1,048,576',
    });
    expect(probe.json).toEqual({ pong: true });
  });

  it('refuses a 0.7 MB case-insensitive pattern before compiling it', async () => {
    const [abusive, probe] = await Promise.all([post('/match', { p: '(?:a|b)'.repeat(100_000), t: 'ab' }), ping()]);
    expect(abusive.status).toBe(422);
    expect(abusive.json).toEqual({ success: false, code: 'value_too_large', message: 'Match Regex (n1): the pattern is 700,000 characters; the limit is 4,096' });
    expect(probe.status).toBe(200);
  });

  it('runs a long pattern on a long text off the event loop', async () => {
    const answer = await post('/match', { p: `(?:${'x'.repeat(300)})|b+`, t: 'ab'.repeat(50_000) });
    expect(answer.json).toEqual({ found: true });
  });

  it('filters an image at the pixel cap off the event loop and stops it at the deadline (504), answering others meanwhile', async () => {
    const png = bandedPng(5000, 5000);
    const images = await startStandIn((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    const shortDeadline = await startGateway({ FLOW_TIMEOUT_MS: '1500' });
    try {
      const host = `${projects.noisy.subdomain}.localhost`;
      const blur = call(shortDeadline.url, host, '/blur', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${images.url}/big.png` }) });
      const order: string[] = [];
      const answered = blur.then((answer) => (order.push('image'), answer));
      const probe = await call(shortDeadline.url, `${projects.quiet.subdomain}.localhost`, '/ping');
      order.push('probe');
      const answer = await answered;
      expect(probe.json).toEqual({ pong: true });
      expect(order).toEqual(['probe', 'image']);
      expect(answer.status).toBe(504);
      expect(answer.json).toMatchObject({ success: false, code: 'flow_timeout' });
    } finally {
      await shortDeadline.close();
      await images.close();
    }
  });

  it('answers another project while a long flow is running', async () => {
    // Budgets no machine reaches: the flow must complete, so the answer is known.
    const generous = await startGateway({ FLOW_CPU_BUDGET_MS: '600000', FLOW_TIMEOUT_MS: '600000' });
    try {
      const running = projects.whenStarted();
      const order: string[] = [];
      // 150 case changes of 700,000 characters: far longer than one slice of the event loop.
      const long = call(generous.url, `${projects.noisy.subdomain}.localhost`, '/long', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ s: 'Ab'.repeat(350_000) }),
      }).then((answer) => {
        order.push('long flow answered');
        return answer;
      });
      await running;
      const probe = await call(generous.url, `${projects.quiet.subdomain}.localhost`, '/ping');
      order.push('probe answered');
      const answer = await long;
      expect(probe.json).toEqual({ pong: true });
      expect(order).toEqual(['probe answered', 'long flow answered']);
      expect(answer.json).toEqual({ length: 'ab'.repeat(350_000) });
    } finally {
      await generous.close();
    }
  });
});
