import { runRegexTask } from '../blocks/match_regex/match-regex.block';
import type { RegexPort, RegexTask } from '../ports';
import { FairScheduler, type FlowScheduler } from './fair-scheduler';
import { DEFAULT_FLOW_LIMITS, type FlowLimits } from './flow-limits';
import type { BlockSpec } from '../testing/flow-fixtures';
import { linearFlow, request, respondingFlow, runFlow } from '../testing/flow-fixtures';

const limits = (overrides: Partial<FlowLimits>): FlowLimits => ({ ...DEFAULT_FLOW_LIMITS, ...overrides });
const setVar = (id: string, value: string): BlockSpec => ({ id, type: 'set_variable', config: { name: 'v', value } });
const text = (id: string, operation: string, extra: Record<string, string> = {}): BlockSpec => ({
  id,
  type: 'manipulate_text',
  config: { input: '{local.v}', operation, ref: 'v', ...extra },
});

/** Value doubling: the body's text, doubled 24 times, then upper- and lowercased 80 times. */
const doublingFlow = respondingFlow(
  [
    setVar('seed', '{body.s}'),
    ...Array.from({ length: 24 }, (_, index) => setVar(`double${index + 1}`, '{local.v}{local.v}')),
    ...Array.from({ length: 80 }, (_, index) => text(`case${index + 1}`, index % 2 === 0 ? 'uppercase' : 'lowercase')),
  ],
  { length: '{local.v}' },
);

describe('flow limits: values', () => {
  it('stops a value that doubles at the block that would pass the limit, before making it (422 value_too_large)', async () => {
    const result = await runFlow(doublingFlow, { request: request({ body: { s: 'x'.repeat(16) } }) });
    // 16 × 2^16 = 1,048,576 fits; the 17th doubling would make 2,097,152.
    expect(result).toEqual({
      type: 'error',
      status: 422,
      code: 'value_too_large',
      message: 'Set Variable (double17): the text would be at least 2,097,152 characters; the limit is 1,048,576',
      node_id: 'double17',
    });
  });

  it('stops the same flow by its CPU budget when the value limit lets it through', async () => {
    const result = await runFlow(doublingFlow, { request: request({ body: { s: 'x' } }), options: { limits: limits({ maxValueChars: 1 << 24, cpuBudgetMs: 50 }) } });
    expect(result).toMatchObject({ type: 'error', status: 504, code: 'flow_cpu_exceeded', node_id: expect.stringMatching(/^case\d+$/) });
  });

  // The seed is 100 characters and 'twice' makes 200, within a limit of 500; each block then grows it beyond.
  it.each<[string, BlockSpec, string]>([
    ['replace', text('grow', 'replace', { find: 'a', replacement: 'bbbbbbbbbb' }), 'Manipulate Text (grow): the result would be at least 2,000 characters; the limit is 500'],
    ['concatenate', text('grow', 'concatenate', { append: '{local.v}{local.v}' }), 'Manipulate Text (grow): the result would be at least 600 characters; the limit is 500'],
    ['split into characters', text('grow', 'split', { delimiter: '' }), 'Manipulate Text (grow): the list would be at least 802 characters; the limit is 500'],
    ['binary encoding', { id: 'grow', type: 'encode_text', config: { input: '{local.v}{local.v}', encoding: 'binary', ref: 'e' } }, 'Encode Text (grow): the result would be at least 3,600 characters; the limit is 500'],
  ])('refuses %s beyond the limit before doing it', async (_case, block, message) => {
    const flow = respondingFlow([setVar('seed', '{body.s}'), setVar('twice', '{local.v}{local.v}'), block], {});
    const result = await runFlow(flow, { request: request({ body: { s: 'a'.repeat(100) } }), options: { limits: limits({ maxValueChars: 500 }) } });
    expect(result).toEqual({ type: 'error', status: 422, code: 'value_too_large', message, node_id: 'grow' });
  });

  it('counts every part of a Respond body: many references to one large value are refused', async () => {
    const body = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`copy${index}`, '{local.v}']));
    const flow = respondingFlow([setVar('seed', '{body.s}')], body);
    const result = await runFlow(flow, { request: request({ body: { s: 'z'.repeat(100) } }), options: { limits: limits({ maxValueChars: 1000 }) } });
    expect(result).toMatchObject({ status: 422, code: 'value_too_large', node_id: 'respond', message: expect.stringMatching(/^Respond \(respond\): the value would be at least 1,\d{3} characters; the limit is 1,000$/) });
  });

  it('refuses a regular expression or a text longer than the limits, naming the block', async () => {
    const flow = respondingFlow([{ id: 'match', type: 'match_regex', config: { input: '{body.t}', pattern: '{body.p}', flags: 'i', ref: 'm' } }], { m: '{result.m}' });
    const small = limits({ maxRegexPatternChars: 50, maxRegexInputChars: 80 });
    await expect(runFlow(flow, { request: request({ body: { p: 'a'.repeat(51), t: 'a' } }), options: { limits: small } })).resolves.toEqual({
      type: 'error',
      status: 422,
      code: 'value_too_large',
      message: 'Match Regex (match): the pattern is 51 characters; the limit is 50',
      node_id: 'match',
    });
    await expect(runFlow(flow, { request: request({ body: { p: 'a', t: 'a'.repeat(81) } }), options: { limits: small } })).resolves.toMatchObject({
      code: 'value_too_large',
      message: 'Match Regex (match): the input text is 81 characters; the limit is 80',
    });
  });

  it('refuses a regex result larger than a value may hold', async () => {
    const flow = respondingFlow([{ id: 'match', type: 'match_regex', config: { input: '{body.t}', pattern: '(a)', ref: 'm' } }], {});
    const result = await runFlow(flow, { request: request({ body: { t: 'a'.repeat(300) } }), options: { limits: limits({ maxValueChars: 1000 }) } });
    expect(result).toMatchObject({ status: 422, code: 'value_too_large', node_id: 'match' });
  });

  it('leaves an external response over the limit unread: {NAME.error} is response_too_large', async () => {
    const flow = respondingFlow([{ id: 'call', type: 'http_request', config: { name: 'api', url: 'https://api.example.com/' } }], { error: '{api.error}', status: '{api.status}' });
    const http = { request: async () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'y'.repeat(2000) }) };
    await expect(runFlow(flow, { ports: { http }, options: { limits: limits({ maxValueChars: 1000 }) } })).resolves.toEqual({
      type: 'response',
      status: 200,
      body: { error: 'response_too_large', status: null },
    });
  });
});

describe('flow limits: memory a run keeps (FLOW_MAX_RUN_BYTES)', () => {
  /** Keep-everything: 16 characters doubled 16 times (1 Mi characters), then case changes each kept under its own name. */
  const keepingFlow = (changes: number) =>
    respondingFlow(
      [
        setVar('seed', '{body.s}'),
        ...Array.from({ length: 16 }, (_, index) => setVar(`double${index + 1}`, '{local.v}{local.v}')),
        ...Array.from({ length: changes }, (_, index) => ({
          id: `case${index + 1}`,
          type: 'manipulate_text',
          config: { input: '{local.v}', operation: index % 2 === 0 ? 'uppercase' : 'lowercase', ref: `r${index + 1}` },
        })),
      ],
      { done: true },
    );
  const seed = () => request({ body: { s: 'abcdefghijklmnop' } });

  it('stops the run at the block whose value would pass the budget (422 run_memory_exceeded naming it)', async () => {
    const result = await runFlow(keepingFlow(470), { request: seed() });
    // 2 MiB per kept text (2 bytes per character): the seed's 1 Mi characters and 15 case changes fill 32 MiB.
    expect(result).toEqual({
      type: 'error',
      status: 422,
      code: 'run_memory_exceeded',
      message: 'Manipulate Text (case16): the values this run keeps would take at least 35,651,584 bytes; the limit (FLOW_MAX_RUN_BYTES) is 33,554,432',
      node_id: 'case16',
    });
  });

  it('counts a value replaced under the same name once', async () => {
    const result = await runFlow(doublingFlow, { request: request({ body: { s: 'x'.repeat(16) } }), options: { limits: limits({ maxValueChars: 1 << 21, maxRunBytes: 5 * 1024 * 1024, cpuBudgetMs: 60_000 }) } });
    // Every doubling and case change replaces `v`: only the last one counts (2 Mi characters, 4 MiB).
    expect(result).toMatchObject({ code: 'value_too_large', node_id: 'double18' });
  });

  it('tells the memory account what the run holds, and gives it all back when the run ends', async () => {
    let held = 0;
    let highest = 0;
    const memory = { add: (bytes: number) => ((held += bytes), (highest = Math.max(highest, held)), true) };
    await expect(runFlow(keepingFlow(3), { request: seed(), options: { memory } })).resolves.toEqual({ type: 'response', status: 200, body: { done: true } });
    expect(highest).toBe(4 * 2 * 1024 * 1024);
    expect(held).toBe(0);
    await expect(runFlow(keepingFlow(470), { request: seed(), options: { memory } })).resolves.toMatchObject({ code: 'run_memory_exceeded' });
    expect(held).toBe(0);
  });

  it('stops the run with 503 unavailable when the account refuses more memory, and gives back what it held', async () => {
    let held = 0;
    const memory = { add: (bytes: number) => (held + bytes > 5 * 1024 * 1024 ? false : ((held += bytes), true)) };
    await expect(runFlow(keepingFlow(3), { request: seed(), options: { memory } })).resolves.toEqual({
      type: 'error',
      status: 503,
      code: 'unavailable',
      message: 'The server running the flow is short of memory; retry shortly.',
      node_id: 'case2',
    });
    expect(held).toBe(0);
  });
});

describe('flow limits: regex work off the event loop', () => {
  const flow = respondingFlow([{ id: 'match', type: 'match_regex', config: { input: '{body.t}', pattern: '{body.p}', ref: 'm' } }], { m: '{result.m.matches}' });

  function recordingPort(): { port: RegexPort; tasks: RegexTask[] } {
    const tasks: RegexTask[] = [];
    return { tasks, port: { match: async (task) => (tasks.push(task), runRegexTask(task)) } };
  }

  it('hands a long text to the regex port and matches a short one inline', async () => {
    const { port, tasks } = recordingPort();
    const long = 'ab'.repeat(20_000);
    await expect(runFlow(flow, { ports: { regex: port }, request: request({ body: { p: 'b+', t: long } }) })).resolves.toMatchObject({ type: 'response' });
    expect(tasks).toEqual([{ pattern: 'b+', flags: '', input: long, maxResultChars: DEFAULT_FLOW_LIMITS.maxValueChars }]);
    await expect(runFlow(flow, { ports: { regex: port }, request: request({ body: { p: 'b+', t: 'abba' } }) })).resolves.toEqual({ type: 'response', status: 200, body: { m: ['bb'] } });
    expect(tasks).toHaveLength(1);
  });

  it('hands a short pattern whose compiled program is large to the port, though pattern × text is small', async () => {
    const { port, tasks } = recordingPort();
    // 16 characters × 4,095 characters is under the old cut-off; the program has 2,403 instructions.
    const input = `${'a'.repeat(4094)}z`;
    const result = await runFlow(flow, { ports: { regex: port }, request: request({ body: { p: '((.)|b){0,300}z', t: input } }) });
    expect(result).toEqual({ type: 'response', status: 200, body: { m: [`${'a'.repeat(300)}z`] } });
    expect(tasks.map((task) => task.pattern)).toEqual(['((.)|b){0,300}z']);
  });

  it('refuses at run time a pattern whose compiled program is over the cap, on either thread (500 flow_error)', async () => {
    const { port } = recordingPort();
    for (const ports of [{}, { regex: port }]) {
      await expect(runFlow(flow, { ports, request: request({ body: { p: '(?:ab|cd){0,700}z', t: 'aaz' } }) })).resolves.toMatchObject({
        status: 500,
        code: 'flow_error',
        node_id: 'match',
        message: 'Match Regex (match): the pattern is too large to run: it compiles to 4,203 instructions; the limit is 3,000 (counted repetitions such as {0,1000} multiply the size of what they repeat)',
      });
    }
  });

  it('reports what the port refused as the flow error it would have been inline', async () => {
    const { port } = recordingPort();
    const long = 'a'.repeat(70_000);
    await expect(runFlow(flow, { ports: { regex: port }, request: request({ body: { p: '(a)', t: long } }), options: { limits: limits({ maxValueChars: 10_000 }) } })).resolves.toMatchObject({
      status: 422,
      code: 'value_too_large',
      node_id: 'match',
    });
    await expect(runFlow(flow, { ports: { regex: port }, request: request({ body: { p: '(a\\1)', t: long } }) })).resolves.toMatchObject({
      status: 500,
      code: 'flow_error',
      message: expect.stringMatching(/^Match Regex \(match\): the pattern is not accepted by the linear-time regex engine: .*backreferences are not supported/),
    });
  });
});

describe('flow limits: time on the event loop', () => {
  /** Thirty case changes of a 200,000-character text: far more than a first slice of 1 ms. */
  const longFlow = respondingFlow(
    [setVar('seed', '{body.s}'), ...Array.from({ length: 30 }, (_, index) => text(`case${index + 1}`, index % 2 === 0 ? 'uppercase' : 'lowercase'))],
    { done: true },
  );
  const longRequest = () => request({ body: { s: 'Ab'.repeat(100_000) } });

  it('stops a run that used up its CPU budget (504 flow_cpu_exceeded)', async () => {
    const result = await runFlow(longFlow, { request: longRequest(), options: { limits: limits({ cpuBudgetMs: 0.001 }) } });
    expect(result).toMatchObject({ type: 'error', status: 504, code: 'flow_cpu_exceeded', message: 'The flow used more processing time than a request may use.' });
  });

  it('lets other work run between the slices of a long run', async () => {
    const scheduler = new FairScheduler({ maxSliceMs: 1, defer: setImmediate });
    const events: string[] = [];
    const running = runFlow(longFlow, { request: longRequest(), options: { scheduler } }).then((result) => {
      events.push('long run finished');
      return result;
    });
    setImmediate(() => events.push('other work ran'));
    await expect(running).resolves.toEqual({ type: 'response', status: 200, body: { done: true } });
    expect(events).toEqual(['other work ran', 'long run finished']);
  });

  it('keeps the deadline while a run waits for its next slice', async () => {
    const never: FlowScheduler = { turn: () => new Promise(() => undefined), sliceEnded: () => undefined };
    const result = await runFlow(longFlow, { request: longRequest(), options: { scheduler: never, timeoutMs: 50 } });
    expect(result).toMatchObject({ type: 'error', status: 504, code: 'flow_timeout' });
  });

  it('keeps a short flow synchronous: no slice is ever waited for', async () => {
    const turns: number[] = [];
    const counting: FlowScheduler = { turn: async () => (turns.push(1), 1), sliceEnded: () => undefined };
    const result = await runFlow(linearFlow([setVar('a', 'x'), text('b', 'uppercase')]), { options: { scheduler: counting } });
    expect(result).toEqual({ type: 'response', status: 200, body: {} });
    expect(turns).toEqual([]);
  });
});
