import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { SecretMasker } from '@flowgate/contracts';
import type { CompileContext, Diagnostic } from '@flowgate/flow-engine';
import { AppError } from '../common/app-error';
import type { ControlPlaneConfig } from '../config/control-plane.config';
import type { EndpointRecord } from '../endpoints/endpoints.repository';
import type { EndpointsService } from '../endpoints/endpoints.service';
import { FlowCompiler } from '../endpoints/flow-compiler';
import type { RateWindow, RateWindows } from '../infrastructure/rate-windows';
import type { SecretsService } from '../secrets/secrets.service';
import { appErrorOf, fakeProjects, fakeWorld } from '../testing/fake-services';
import { brokenFlow, respondFlow } from '../testing/flows';
import type { AssistantModel, ModelRequest } from './assistant-model';
import { AssistantService, REPAIR_ROUNDS } from './assistant.service';
import { draftSchema } from './dto/draft.dto';

// The service with a fake model and fake project reads (no PostgreSQL, no Redis, no Anthropic):
// what the model is sent, how its proposals become a draft, the repair rounds, and the refusals.
// The flow is validated by the real FlowCompiler, as Save does. assistant.int.spec.ts runs the
// same API with the real SDK against a stand-in Messages API.

const SECRET_VALUE = 'sk-live-do-not-leak-4f8a1c';

type Answer = Anthropic.Messages.Message | Error | 'hold';

/** The model's seam: scripted answers in order; every request recorded as it was sent. */
class FakeModel {
  readonly asked: Array<{ request: ModelRequest; signal: AbortSignal }> = [];
  private readonly answers: Answer[] = [];
  private onHold: ((signal: AbortSignal) => void) | null = null;

  constructor(readonly available = true) {}

  script(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  /** The next call answers only when its signal aborts (as the SDK does); resolves with that signal once asked. */
  holdNext(): Promise<AbortSignal> {
    this.answers.push('hold');
    return new Promise((resolve) => (this.onHold = resolve));
  }

  async ask(request: ModelRequest, signal: AbortSignal): Promise<Anthropic.Messages.Message> {
    // A copy: the service adds the repair turns to the same conversation after the call.
    this.asked.push({ request: structuredClone(request), signal });
    const answer = this.answers.shift();
    if (answer === undefined) throw new Error('the model was asked more often than scripted');
    if (answer instanceof Error) throw answer;
    if (answer !== 'hold') return answer;
    return new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Anthropic.APIUserAbortError()), { once: true });
      this.onHold?.(signal);
    });
  }
}

/** SecretsService.open: the masker of the project's values, as the real one builds it. */
class FakeSecrets {
  readonly values = new Map<string, string>();
  async open() {
    return { masker: SecretMasker.of([...this.values].map(([name, value]) => ({ name, values: [value] }))) };
  }
}

/** The endpoint reads the service makes: one project's endpoints, what Save checks against, and the diagnostics' masking. */
class FakeEndpoints {
  readonly rows: EndpointRecord[] = [];
  context: Omit<CompileContext, 'secret_names'> = { tables: [], functions: [], email_verified_domains: [], text_generation: false, function_versions: 'live' };

  constructor(
    private readonly projectId: string,
    private readonly secrets: FakeSecrets,
  ) {}

  async require(projectId: string, endpointId: string) {
    const row = this.rows.find((candidate) => candidate.projectId === projectId && candidate.id === endpointId);
    if (!row) throw new AppError('endpoint_not_found', 'Endpoint not found');
    return row;
  }

  async compileContext(projectId: string): Promise<CompileContext> {
    if (projectId !== this.projectId) throw new Error(`compileContext of another project (${projectId})`);
    return { ...this.context, secret_names: [...this.secrets.values.keys()] };
  }

  async maskSecrets(_projectId: string, diagnostics: Diagnostic[]) {
    const { masker } = await this.secrets.open();
    return masker === null ? diagnostics : masker.value(diagnostics);
  }

  add(content: Pick<EndpointRecord, 'name' | 'method' | 'path' | 'auth' | 'queryParams' | 'flow'>): EndpointRecord {
    const row: EndpointRecord = {
      ...content,
      options: {},
      id: randomUUID(),
      projectId: this.projectId,
      liveVersion: null,
      draftChangedAt: null,
      createdAt: new Date('2026-11-20T10:00:00Z'),
      updatedAt: new Date('2026-11-20T10:00:00Z'),
    };
    this.rows.push(row);
    return row;
  }
}

/** RateWindows over a list: the windows taken, and 429 past `max` as the real one answers. */
class FakeRates {
  readonly taken: RateWindow[] = [];
  async take(rate: RateWindow) {
    if (this.taken.filter((window) => window.key === rate.key).length >= rate.max) {
      throw new AppError('rate_limited', `${rate.what}; try again in 60 s`, undefined, { 'Retry-After': '60' });
    }
    this.taken.push(rate);
  }
}

function setUp({ available = true, perHour = 30 } = {}) {
  const world = fakeWorld();
  const model = new FakeModel(available);
  const secrets = new FakeSecrets();
  const endpoints = new FakeEndpoints(world.project.id, secrets);
  const rates = new FakeRates();
  const config = { assistant: { perHour } } as ControlPlaneConfig;
  const service = new AssistantService(
    model as unknown as AssistantModel,
    fakeProjects(world),
    endpoints as unknown as EndpointsService,
    new FlowCompiler(),
    secrets as unknown as SecretsService,
    rates as unknown as RateWindows,
    config,
  );
  const draft = (prompt: string, endpointId?: string, signal = new AbortController().signal, accountId = world.owner) =>
    service.draft(accountId, world.project.id, { prompt, endpoint_id: endpointId }, signal);
  return { service, model, secrets, endpoints, rates, world, draft };
}

let calls = 0;
const message = (content: unknown[], usage = { input_tokens: 1000, output_tokens: 200 }) =>
  ({ id: `msg_${++calls}`, type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: 'tool_use', stop_sequence: null, usage }) as Anthropic.Messages.Message;
/** An answer that calls the draft tool with `input`. */
const proposal = (input: unknown, usage?: { input_tokens: number; output_tokens: number }) =>
  message([{ type: 'tool_use', id: `toolu_${++calls}`, name: 'propose_endpoint', input }], usage);
/** An answer that talks instead of calling the tool. */
const chat = (text: string) => message([{ type: 'text', text, citations: null }]);

const greetSettings = { name: 'Greet', method: 'GET', path: '/greet', auth: 'none', query_params: [{ key: 'name', default: 'world' }] };
const valid = { explanation: 'Answers a greeting with the name from the query.', settings: greetSettings, flow: respondFlow('Hello {params.name}') };
/** A Set Variable without its name: Save reports one `required_field`. */
const broken = (explanation: string) => ({ explanation, settings: greetSettings, flow: brokenFlow() });
/** Two Set Variables without their names: more errors than `broken`. */
const worse = () => {
  const flow = brokenFlow();
  flow.nodes.push({ id: 'n2', type: 'set_variable', position: { x: 0, y: 360 }, config: { value: 'y' } });
  flow.edges.push({ id: 'e3', source: 'n1', target: 'n2' });
  return { explanation: 'Worse.', settings: greetSettings, flow };
};

const errorsOf = (diagnostics: Diagnostic[]) => diagnostics.filter((item) => item.severity === 'error');

describe('AssistantService (fake model and project)', () => {
  it('says whether the operator set a key, and how many drafts an hour allows', () => {
    expect(setUp({ perHour: 12 }).service.status()).toEqual({ available: true, drafts_per_hour: 12 });
    expect(setUp({ available: false }).service.status()).toEqual({ available: false, drafts_per_hour: 30 });
  });

  it('answers a valid proposal as the API returns a draft: settings as Save takes them, the flow, the explanation, no problems, the usage', async () => {
    const { model, draft } = setUp();
    model.script(proposal(valid, { input_tokens: 1500, output_tokens: 220 }));

    const answer = await draft('An endpoint to greet people');
    expect(answer).toEqual({
      flow: valid.flow,
      settings: greetSettings,
      explanation: valid.explanation,
      diagnostics: [],
      usage: { input_tokens: 1500, output_tokens: 220 },
    });
    expect(draftSchema.parse(answer)).toEqual(answer);
    expect(model.asked).toHaveLength(1);
    const { request } = model.asked[0]!;
    expect(request.tools).toEqual([expect.objectContaining({ name: 'propose_endpoint' })]);
    expect(request.tool_choice).toEqual({ type: 'tool', name: 'propose_endpoint' });
    expect(request.messages).toEqual([{ role: 'user', content: 'An endpoint to greet people' }]);
  });

  it('reads a proposal without a flow as an empty flow, with the problems Save finds in it', async () => {
    const { model, draft } = setUp();
    model.script(proposal({ explanation: 'No flow.' }), proposal({ explanation: 'Still none.' }), proposal({ explanation: 'Never.' }));

    const answer = await draft('Forget the flow');
    expect(answer.flow).toEqual({ nodes: [], edges: [] });
    expect(answer.explanation).toBe('Never.');
    expect(errorsOf(answer.diagnostics)).not.toEqual([]);
  });

  it('tells the model the project: its tables, functions, secret names and integrations', async () => {
    const { model, secrets, endpoints, draft } = setUp();
    secrets.values.set('PAYMENT_TOKEN', SECRET_VALUE);
    endpoints.context = {
      ...endpoints.context,
      tables: [{ name: 'customers', columns: [{ name: 'email', type: 'text' }] }],
      functions: [{ id: randomUUID(), name: 'send_receipt', inputs: [{ name: 'order_id', type: 'string', required: true }], live: false }],
      email_verified_domains: ['shop.example'],
      text_generation: true,
    };
    model.script(proposal(valid));

    await draft('Greet the customers');
    const { system } = model.asked[0]!.request;
    expect(system).toContain('customers: email (text)');
    expect(system).toContain('send_receipt (not deployed: Call Function cannot use it until it is): inputs order_id (string, required)');
    expect(system).toContain('- PAYMENT_TOKEN');
    expect(system).toContain('Text generation (Generate Text, Stream Text): set up');
    expect(system).toContain('senders at shop.example');
    expect(system).not.toContain('The endpoint being edited');
  });

  it('never sends a secret value: one typed into the description or into the endpoint’s draft goes as [secret:NAME]', async () => {
    const { model, secrets, endpoints, draft } = setUp();
    secrets.values.set('PAYMENT_TOKEN', SECRET_VALUE);
    const endpoint = endpoints.add({ name: 'Pay', method: 'GET', path: '/pay', auth: 'none', queryParams: [], flow: respondFlow(`token ${SECRET_VALUE}`) });
    model.script(proposal(valid));

    await draft(`Change it to greet; my token is ${SECRET_VALUE}`, endpoint.id);
    const sent = JSON.stringify(model.asked.map(({ request }) => request));
    expect(sent).not.toContain(SECRET_VALUE);
    expect(model.asked[0]!.request.messages).toEqual([{ role: 'user', content: 'Change it to greet; my token is [secret:PAYMENT_TOKEN]' }]);
    expect(model.asked[0]!.request.system).toContain('"message":"token [secret:PAYMENT_TOKEN]"');
  });

  it('masks a secret value the proposal holds in the problems it answers and sends back for a repair', async () => {
    const { model, secrets, draft } = setUp();
    secrets.values.set('PAYMENT_TOKEN', SECRET_VALUE);
    // Save quotes a recipient that is not an address: here the secret's value.
    const email = { id: 'm1', type: 'send_email', position: { x: 0, y: 400 }, config: { to: SECRET_VALUE, from: 'Shop <shop@shop.example>', subject: 'Hi', body: 'Hello' } };
    const leaky = { ...valid, flow: { nodes: [...valid.flow.nodes, email], edges: [...valid.flow.edges, { id: 'e2', source: 'start', target: 'm1' }] } };
    model.script(proposal(leaky), proposal(leaky), proposal(leaky));

    const answer = await draft('Call the API');
    const repairs = model.asked.slice(1).map(({ request }) => request.messages.at(-1));
    for (const reported of [answer.diagnostics, ...repairs]) {
      expect(JSON.stringify(reported)).toContain('[secret:PAYMENT_TOKEN]');
      expect(JSON.stringify(reported)).not.toContain(SECRET_VALUE);
    }
  });

  it('starts from an endpoint’s saved draft: the model is shown it, settings it leaves out keep the endpoint’s, and the endpoint is not changed', async () => {
    const { model, endpoints, draft } = setUp();
    const endpoint = endpoints.add({ name: 'Existing', method: 'GET', path: '/existing', auth: 'none', queryParams: [], flow: respondFlow('old') });
    const before = structuredClone(endpoint);
    model.script(proposal({ explanation: 'Now it greets.', flow: valid.flow, settings: { query_params: [{ key: 'name', default: null }] } }));

    const answer = await draft('Make it greet', endpoint.id);
    expect(answer.settings).toMatchObject({ name: 'Existing', method: 'GET', path: '/existing', query_params: [{ key: 'name', default: null }] });
    expect(answer.flow).toEqual(valid.flow);
    const { system } = model.asked[0]!.request;
    expect(system).toContain('## The endpoint being edited');
    expect(system).toContain('"path":"/existing"');
    expect(system).toContain('"message":"old"');
    expect(endpoints.rows).toEqual([before]);
  });

  it('sends Save’s problems back as an error tool result and answers the repaired draft, the usage of both calls summed', async () => {
    const { model, draft } = setUp();
    const first = proposal(broken('First try.'), { input_tokens: 1000, output_tokens: 300 });
    model.script(first, proposal(valid, { input_tokens: 1400, output_tokens: 300 }));

    const answer = await draft('Greeting endpoint');
    expect(answer).toMatchObject({ flow: valid.flow, explanation: valid.explanation, diagnostics: [], usage: { input_tokens: 2400, output_tokens: 600 } });
    expect(model.asked).toHaveLength(2);
    const [prompt, proposed, repair] = model.asked[1]!.request.messages;
    expect(prompt).toEqual({ role: 'user', content: 'Greeting endpoint' });
    expect(proposed).toEqual({ role: 'assistant', content: first.content });
    const toolUseId = (first.content[0] as Anthropic.Messages.ToolUseBlock).id;
    expect(repair).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUseId, is_error: true, content: expect.stringMatching(/^- required_field \(block n1, field name\): /m) }],
    });
  });

  it(`stops after ${REPAIR_ROUNDS} repair rounds and answers the draft with the fewest errors (the later on a tie), with its problems`, async () => {
    const { model, draft } = setUp();
    model.script(proposal(broken('First try.')), proposal(worse()), proposal(broken('Third try.')));

    const answer = await draft('This is never right');
    expect(model.asked).toHaveLength(REPAIR_ROUNDS + 1);
    expect(answer.explanation).toBe('Third try.');
    expect(answer.flow).toEqual(brokenFlow());
    expect(errorsOf(answer.diagnostics)).toEqual([expect.objectContaining({ code: 'required_field', node_id: 'n1', field: 'name' })]);
    expect(answer.usage).toEqual({ input_tokens: 3000, output_tokens: 600 });
  });

  it('answers 502 assistant_failed when the model answers without proposing an endpoint', async () => {
    const { model, draft } = setUp();
    model.script(chat('Sure, here is how I would do it…'));

    const error = await appErrorOf(draft('Let us just chat'));
    expect([error.code, error.status]).toEqual(['assistant_failed', 502]);
    expect(error.message).toContain('without proposing an endpoint');
    expect(model.asked).toHaveLength(1);
  });

  it('keeps the draft it has when a repair round answers without a proposal', async () => {
    const { model, draft } = setUp();
    model.script(proposal(broken('First try.')), chat('I cannot fix that.'));

    const answer = await draft('Half a repair');
    expect(model.asked).toHaveLength(2);
    expect(answer.explanation).toBe('First try.');
    expect(errorsOf(answer.diagnostics)).toEqual([expect.objectContaining({ code: 'required_field', node_id: 'n1' })]);
  });

  it('passes the model’s failure on as it is, without another call', async () => {
    const { model, draft } = setUp();
    const refused = new AppError('assistant_failed', 'The assistant’s model refused the request: prompt is too long (HTTP 400)');
    model.script(refused);

    expect(await appErrorOf(draft('When the model refuses'))).toBe(refused);
    expect(model.asked).toHaveLength(1);
  });

  it('aborts the model’s call when the caller goes away, and answers that the draft was cancelled', async () => {
    const { model, draft } = setUp();
    const caller = new AbortController();
    const asked = model.holdNext();
    const drafting = appErrorOf(draft('Then cancel me', undefined, caller.signal));

    const signal = await asked;
    expect(signal.aborted).toBe(false);
    caller.abort();
    const error = await drafting;
    expect(signal.aborted).toBe(true);
    expect([error.code, error.status, error.message]).toEqual(['assistant_failed', 502, 'The draft was cancelled']);
    expect(model.asked).toHaveLength(1);
  });

  it('refuses without the operator’s key (503 assistant_unavailable naming the variable), counting and asking nothing', async () => {
    const { model, rates, draft } = setUp({ available: false });

    const error = await appErrorOf(draft('anything'));
    expect([error.code, error.status]).toEqual(['assistant_unavailable', 503]);
    expect(error.message).toContain('FLOWGATE_ASSISTANT_API_KEY');
    expect(rates.taken).toEqual([]);
    expect(model.asked).toEqual([]);
  });

  it('treats another account’s project as unknown, before saying whether the assistant is set up', async () => {
    for (const available of [true, false]) {
      const { model, rates, world, draft } = setUp({ available });
      const error = await appErrorOf(draft('anything', undefined, undefined, world.stranger));
      expect([error.code, error.status]).toEqual(['project_not_found', 404]);
      expect(rates.taken).toEqual([]);
      expect(model.asked).toEqual([]);
    }
  });

  it('refuses an endpoint the project does not have with 404, without counting the draft', async () => {
    const { model, rates, draft } = setUp();
    const error = await appErrorOf(draft('Change it', randomUUID()));
    expect([error.code, error.status]).toEqual(['endpoint_not_found', 404]);
    expect(rates.taken).toEqual([]);
    expect(model.asked).toEqual([]);
  });

  it('counts a draft once whatever its repair rounds, per account in a sliding hour, and refuses past the limit before asking the model', async () => {
    const { model, rates, world, draft } = setUp({ perHour: 2 });
    model.script(proposal(broken('First try.')), proposal(valid), proposal(valid));
    await draft('One with a repair');
    await draft('One without');
    expect(rates.taken).toEqual([
      expect.objectContaining({ key: expect.stringContaining(world.owner), max: 2, windowMs: 3_600_000 }),
      expect.objectContaining({ key: expect.stringContaining(world.owner), max: 2, windowMs: 3_600_000 }),
    ]);

    const error = await appErrorOf(draft('One too many'));
    expect([error.code, error.status]).toEqual(['rate_limited', 429]);
    expect(error.message).toContain('At most 2 assistant drafts per hour');
    expect(model.asked).toHaveLength(3);
  });
});
