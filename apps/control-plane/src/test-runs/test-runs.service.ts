import { Injectable } from '@nestjs/common';
import type { FlowDocument, JsonValue } from '@flowgate/flow-engine';
import { AppError } from '../common/app-error';
import { TablesService } from '../data-tables/tables.service';
import { flowOf, settingsOf } from '../endpoints/endpoint-content';
import { EndpointsService } from '../endpoints/endpoints.service';
import { type CompileOutcome, FlowCompiler } from '../endpoints/flow-compiler';
import { functionFlowOf, inputsOf } from '../functions/function-content';
import { FunctionsRepository } from '../functions/functions.repository';
import { ProjectLimits } from '../endpoints/project-limits';
import { FunctionCatalog } from '../functions/function-catalog';
import { IntegrationsService } from '../integrations/integrations.service';
import { ProjectsService } from '../projects/projects.service';
import { SecretsService } from '../secrets/secrets.service';
import type { FunctionTestRunInput, TestRunInput, TestRunResult } from './dto/test-run.dto';
import { TestRunSandbox } from './sandbox/test-run-sandbox';
import { flowRequestOf } from './test-run-request';
import { TestRunThrottle } from './test-run-throttle';

/** What the gateway sends with every flow answer. */
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
/** What it sends with Stream Text's answer (the test run shows that answer whole, as JSON). */
const STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8' };

/**
 * Runs the editor's flow (saved or not) the way a live request runs it — compiled by the same
 * engine, with the project's integrations behind the gateway's ports, the same limits and
 * deadline — and reports what every block did (docs/decisions.md: why here and not on a gateway).
 * The flow itself runs in a worker thread of the sandbox, never on the control plane's loop.
 */
@Injectable()
export class TestRunsService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly endpoints: EndpointsService,
    private readonly integrations: IntegrationsService,
    private readonly secrets: SecretsService,
    private readonly tables: TablesService,
    private readonly compiler: FlowCompiler,
    private readonly sandbox: TestRunSandbox,
    private readonly throttle: TestRunThrottle,
    private readonly limits: ProjectLimits,
    private readonly functions: FunctionCatalog,
    private readonly functionDrafts: FunctionsRepository,
  ) {}

  async run(accountId: string, projectId: string, endpointId: string, input: TestRunInput): Promise<TestRunResult> {
    const project = await this.projects.requireOwned(accountId, projectId);
    const draft = await this.endpoints.require(projectId, endpointId);
    if (input.flow) this.limits.assertFlowSize(input.flow);
    await this.throttle.reserve(accountId);
    const settings = { ...settingsOf(draft), ...definedOnly(input.settings ?? {}) };
    const facts = await this.projectFacts(projectId);
    const outcome = this.compiler.compile(input.flow ?? flowOf(draft), settings, facts.context);
    return this.execute(accountId, project, facts, outcome, flowRequestOf(input.request, settings), input.send_email, []);
  }

  /**
   * A function's test: its flow (the saved draft, or the one given) called with `args` by a
   * one-block caller, so the trace shows the Call Function with the function's blocks under it
   * and the answer is what it returned.
   */
  async runFunction(accountId: string, projectId: string, functionId: string, input: FunctionTestRunInput): Promise<TestRunResult> {
    const project = await this.projects.requireOwned(accountId, projectId);
    const draft = await this.functionDrafts.find(projectId, functionId);
    if (!draft) throw new AppError('function_not_found', 'Function not found');
    if (input.flow) this.limits.assertFlowSize(input.flow);
    await this.throttle.reserve(accountId);
    const facts = await this.projectFacts(projectId);
    const tested = this.compiler.compileFunction(input.flow ?? functionFlowOf(draft), input.inputs ?? inputsOf(draft), facts.context);
    if (!tested.ok) return this.execute(accountId, project, facts, tested, flowRequestOf({}, CALLER_SETTINGS), false, []);
    const caller = this.compiler.compile(callerFlow(functionId, input.args), CALLER_SETTINGS, {});
    return { ...(await this.execute(accountId, project, facts, caller, flowRequestOf({}, CALLER_SETTINGS), input.send_email, [[functionId, tested.compiled]])), diagnostics: facts.mask(tested.diagnostics) };
  }

  /** The integrations, tables and secrets a test run uses, and what its flow is checked against. */
  private async projectFacts(projectId: string) {
    const { published: integrations, emailVerifiedDomains } = await this.integrations.forTestRun(projectId);
    const tables = await this.tables.forFlows(projectId);
    const secrets = await this.secrets.open(projectId);
    const context = { email_verified_domains: emailVerifiedDomains, tables, secret_names: [...secrets.live.keys()], text_generation: Boolean(integrations.text_generation) };
    const mask = <T>(value: T): T => (secrets.masker === null ? value : secrets.masker.value(value));
    return { integrations, tables, secrets, context, mask };
  }

  private async execute(
    accountId: string,
    project: { id: string; subdomain: string },
    facts: Awaited<ReturnType<TestRunsService['projectFacts']>>,
    outcome: CompileOutcome,
    request: ReturnType<typeof flowRequestOf>,
    sendEmail: boolean,
    replaced: Array<[string, unknown]>,
  ): Promise<TestRunResult> {
    if (!outcome.ok) throw new AppError('invalid_flow', 'The flow cannot run; fix the errors listed in details', facts.mask(outcome.diagnostics));
    // Like the preview address: Call Function runs the saved drafts of the functions (or the one being tested).
    const drafts = await this.functions.compiledDrafts(project.id, (flow, inputs) => this.compiler.compileFunction(flow, inputs, facts.context));
    const functions = [...drafts.filter(([id]) => !replaced.some(([tested]) => tested === id)), ...replaced];
    const ran = await this.sandbox.run(accountId, {
      project: { id: project.id, subdomain: project.subdomain, integrations: facts.integrations, tables: facts.tables },
      sendEmail,
      compiled: outcome.compiled,
      functions,
      request: { ...request, query: [...request.query], headers: request.headers as Record<string, string> },
      // A test run runs a draft, like the preview address: the preview values where set.
      secrets: { values: [...facts.secrets.preview], masked: facts.secrets.masked },
    });
    return {
      // Masked in the thread (trace, body); unlike a live answer, the Respond body too.
      response: { status: ran.status, headers: { ...(ran.streamed && ran.status === 200 ? STREAM_HEADERS : JSON_HEADERS) }, body: ran.body },
      duration_ms: Math.round(ran.durationMs * 1000) / 1000,
      diagnostics: facts.mask(outcome.diagnostics),
      trace: ran.trace,
    };
  }
}

/** The caller of a function's test run: POST, no query parameters. */
const CALLER_SETTINGS = { name: 'Function test', method: 'POST' as const, path: '/function-test', auth: 'none' as const, query_params: [] };

/** Start → Call Function (the arguments as given) → Respond with what it returned. */
const callerFlow = (functionId: string, args: Record<string, JsonValue>): FlowDocument => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'call', type: 'call_function', position: { x: 0, y: 0 }, config: { function: functionId, args, ref: 'returned' } },
    { id: 'answer', type: 'respond', position: { x: 0, y: 0 }, config: { body: '{result.returned}' } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'call' },
    { id: 'e2', source: 'call', target: 'answer' },
  ],
});

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
