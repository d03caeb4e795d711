// Run Code through the real control plane: syntax errors at Save, Deploy and test runs with
// their line and column, and a test run's trace with the block's result, console and failures
// (the sandbox itself: libs/integrations/src/code-sandbox).
import { type TestAccount, type TestApp, useTestApp } from '../testing/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Start → Run Code (n1) → Respond with what it returned. */
const codeFlow = (code: string, config: Json = {}) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'n1', type: 'run_code', position: { x: 0, y: 120 }, config: { code, inputs: [{ name: 'a', value: '{body.a}' }, { name: 'b', value: 2 }], ref: 'out', ...config } },
    { id: 'r1', type: 'respond', position: { x: 0, y: 240 }, config: { body: { out: '{result.out}' } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'r1' },
  ],
});

const SYNTAX_ERROR = 'const total = input.a +;\nreturn total';

describe('Run Code in the control plane', () => {
  let t: TestApp;
  let owner: TestAccount;
  let base: string;
  useTestApp((app, account) => ([t, owner] = [app, account]));

  beforeAll(async () => {
    base = `/v1/projects/${(await t.createProject(owner)).id}/endpoints`;
  });

  const endpoint = (code: string, path: string) => ({ name: 'Code', method: 'POST', path, flow: codeFlow(code) });
  const create = async (code: string): Promise<string> => (await t.http().post(base).set(owner.auth).send(endpoint(code, `/code-${Math.random().toString(36).slice(2, 8)}`)).expect(201)).body.id;
  const testRun = (id: string, code: string, body: Json = { a: 40 }) => t.http().post(`${base}/${id}/test-runs`).set(owner.auth).send({ flow: codeFlow(code), request: { body } });
  const syntaxDiagnostic = expect.objectContaining({ severity: 'error', code: 'code_syntax_error', node_id: 'n1', field: 'code', line: 1, column: 24 });

  it('shows a syntax error at Save with its line and column, and refuses it at Deploy and in a test run', async () => {
    const id = await create('return 1');
    const saved = await t.http().put(`${base}/${id}`).set(owner.auth).send(endpoint(SYNTAX_ERROR, `/saved-${id.slice(0, 8)}`)).expect(200);
    expect(saved.body.diagnostics).toEqual([syntaxDiagnostic]);
    expect(saved.body.diagnostics[0].message).toBe('Run Code (n1): SyntaxError: Unexpected token (line 1, column 24)');
    const deploy = await t.http().post(`${base}/${id}/deploy`).set(owner.auth).expect(400);
    expect(deploy.body).toMatchObject({ success: false, code: 'invalid_flow', details: [syntaxDiagnostic] });
    const run = await testRun(id, SYNTAX_ERROR).expect(400);
    expect(run.body).toMatchObject({ code: 'invalid_flow', details: [syntaxDiagnostic] });
  });

  it('runs the code in a test run: its result, and its console output under the block', async () => {
    const id = await create('return 1');
    const run = await testRun(id, 'console.log("adding", input.a, input.b);\nconsole.warn({ careful: true });\nreturn input.a + input.b').expect(200);
    expect(run.body.response).toMatchObject({ status: 200, body: { out: 42 } });
    expect(run.body.trace[0]).toMatchObject({
      node_id: 'n1',
      type: 'run_code',
      label: 'Run Code',
      status: 'ok',
      output: 42,
      console: [
        { level: 'log', text: 'adding 40 2' },
        { level: 'warn', text: '{"careful":true}' },
      ],
    });
  });

  it('answers a thrown error as a block failure with its line, keeping the console written before it', async () => {
    const id = await create('return 1');
    const run = await testRun(id, 'console.log("about to fail");\nconst order = null;\nreturn order.total').expect(200);
    const message = "Run Code (n1): TypeError: cannot read property 'total' of null (line 3)";
    expect(run.body.response).toMatchObject({ status: 500, body: { success: false, code: 'flow_error', message } });
    expect(run.body.trace[0]).toMatchObject({ status: 'error', error: { code: 'flow_error', message }, console: [{ level: 'log', text: 'about to fail' }] });
  });

  it('stops an endless loop (code_timeout) and an allocation bomb (code_memory_exceeded)', async () => {
    const id = await create('return 1');
    const loop = await testRun(id, 'while (true) {}').expect(200);
    expect(loop.body.response).toMatchObject({ status: 504, body: { code: 'code_timeout', message: 'Run Code (n1): the code ran longer than its timeout (100 ms) and was stopped' } });
    // A generous timeout: the bomb must meet the memory limit, not its CPU limit, on a slow machine too.
    const bomb = await t.http().post(`${base}/${id}/test-runs`).set(owner.auth).send({ flow: codeFlow('const all = [];\nfor (;;) all.push(new ArrayBuffer(1e6))', { timeout_ms: 1000 }) }).expect(200);
    expect(bomb.body.response).toMatchObject({ status: 422, body: { code: 'code_memory_exceeded' } });
  });
});
