/**
 * Run Code through a real gateway: results, console kept out of live answers, thrown and
 * syntax errors, and each limit (CPU, memory, result size), while another project is served.
 * The sandbox's own cases and the escape attempts: libs/integrations/src/code-sandbox.
 */
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { type NoisyNeighbours, startNoisyNeighbours } from '../testing/noisy-neighbours';
import { type Block, call, type CallResult, publishedRoute, respond } from '@flowgate/testing';

jest.setTimeout(60_000);

const runCode = (code: string, config: Record<string, unknown> = {}): Block => ({
  type: 'run_code',
  config: { code, inputs: [{ name: 'a', value: '{body.a}' }, { name: 'b', value: '{body.b}' }], ref: 'out', ...config },
});
const route = (path: string, block: Block) => publishedRoute({ path, method: 'POST', blocks: [block, respond({ out: '{result.out}' })] });

describe('Run Code on the gateway', () => {
  let projects: NoisyNeighbours;
  let gateway: Gateway;

  beforeAll(async () => {
    projects = await startNoisyNeighbours({
      noisy: (startedBlock) => [
        route('/sum', runCode('console.log("not in the answer");\nreturn input.a + input.b')),
        // Longer than a millisecond: run again in the heavy-work pool, same answer.
        route('/long', runCode('let s = 0;\nfor (let i = 0; i < 100000; i++) s += i % 3;\nreturn s + input.a', { timeout_ms: 1000 })),
        route('/throw', runCode('const order = null;\nreturn order.total')),
        route('/escape', runCode('return [typeof process, typeof require, typeof Function("return this")().process]')),
        publishedRoute({ path: '/spin', method: 'POST', blocks: [startedBlock, runCode('while (true) {}', { timeout_ms: 1000 }), respond({})] }),
        route('/regex', runCode('return /(a+)+$/.test("a".repeat(40) + "b")', { timeout_ms: 50 })),
        route('/bomb', runCode('const all = [];\nfor (;;) all.push(new ArrayBuffer(1e6))', { timeout_ms: 1000 })),
        route('/big', runCode('return "x".repeat(input.a)', { timeout_ms: 1000 })),
        // Seconds inside one built-in, where QuickJS never checks the time.
        publishedRoute({ path: '/builtin', method: 'POST', blocks: [startedBlock, runCode('return new Array(3e7).indexOf(1)', { timeout_ms: 1000 }), respond({ out: '{result.out}' })] }),
      ],
    });
    gateway = await startGateway({ FLOW_MAX_RUN_BYTES: String(100_000) });
  });

  afterAll(async () => {
    await gateway?.close();
    await projects?.close();
  });

  const post = (path: string, body: unknown = { a: 1, b: 2 }): Promise<CallResult> =>
    call(gateway.url, `${projects.noisy.subdomain}.localhost`, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const ping = (): Promise<CallResult> => call(gateway.url, `${projects.quiet.subdomain}.localhost`, '/ping');

  it('answers with what the code returns; console output stays out of live answers', async () => {
    const answer = await post('/sum', { a: 40, b: 2 });
    expect([answer.status, answer.json]).toEqual([200, { out: 42 }]);
    expect(answer.text).not.toContain('not in the answer');
  });

  it('gives code that needs longer than its first millisecond the same answer, from the pool', async () => {
    expect((await post('/long', { a: 1 })).json).toEqual({ out: 99_999 + 1 });
  });

  it('answers a thrown error as 500 flow_error naming the block and the line', async () => {
    const answer = await post('/throw');
    expect([answer.status, answer.json]).toEqual([500, { success: false, code: 'flow_error', message: "Run Code (n1): TypeError: cannot read property 'total' of null (line 2)" }]);
  });

  it('reaches nothing of the host', async () => {
    expect((await post('/escape')).json).toEqual({ out: ['undefined', 'undefined', 'undefined'] });
  });

  it('stops an endless loop (504 code_timeout) while another project is served', async () => {
    const started = projects.whenStarted();
    const spinning = post('/spin');
    await started;
    expect((await ping()).json).toEqual({ pong: true });
    const answer = await spinning;
    expect([answer.status, answer.json]).toEqual([504, { success: false, code: 'code_timeout', message: 'Run Code (n2): the code ran longer than its timeout (1000 ms) and was stopped' }]);
  });

  it('serves another project while code is stuck inside a built-in, and answers the stuck run after it', async () => {
    const answered: string[] = [];
    const started = projects.whenStarted();
    const stuck = post('/builtin').then((answer) => {
      answered.push('stuck run');
      return answer;
    });
    await started;
    expect((await ping()).json).toEqual({ pong: true });
    answered.push('other project');
    const answer = await stuck;
    expect(answered).toEqual(['other project', 'stuck run']);
    // Run again in the pool: it ends (the built-in returns) or is stopped with a clear error.
    if (answer.status === 200) expect(answer.json).toEqual({ out: -1 });
    else expect(answer.json).toMatchObject({ success: false, code: expect.stringMatching(/^(code_timeout|flow_error|flow_timeout)$/) });
  });

  it('stops a catastrophic regular expression inside the sandbox (504 code_timeout)', async () => {
    expect(await post('/regex')).toMatchObject({ status: 504, json: { code: 'code_timeout' } });
  });

  it('stops an allocation bomb at CODE_MEMORY_MB (422 code_memory_exceeded), and serves the next request', async () => {
    expect(await post('/bomb')).toMatchObject({ status: 422, json: { code: 'code_memory_exceeded' } });
    expect((await post('/sum', { a: 1, b: 1 })).json).toEqual({ out: 2 });
  });

  it('counts the result against FLOW_MAX_RUN_BYTES (422 run_memory_exceeded)', async () => {
    expect((await post('/big', { a: 10 })).json).toEqual({ out: 'x'.repeat(10) });
    expect(await post('/big', { a: 60_000 })).toMatchObject({ status: 422, json: { code: 'run_memory_exceeded', message: expect.stringMatching(/^Run Code \(n1\): /) } });
  });
});
