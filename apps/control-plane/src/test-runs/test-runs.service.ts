import { Inject, Injectable } from '@nestjs/common';
import { FairScheduler, prepareFlow, runFlow, type ExecuteOptions, type FlowResult } from '@flowgate/flow-engine';
import { performance } from 'node:perf_hooks';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { TablesService } from '../data-tables/tables.service';
import { flowOf, settingsOf } from '../endpoints/endpoint-content';
import { EndpointsService } from '../endpoints/endpoints.service';
import { FlowCompiler } from '../endpoints/flow-compiler';
import { ProjectLimits } from '../endpoints/project-limits';
import { IntegrationsService } from '../integrations/integrations.service';
import { ProjectsService } from '../projects/projects.service';
import { SecretsService } from '../secrets/secrets.service';
import type { TestRunInput, TestRunResult } from './dto/test-run.dto';
import { flowRequestOf } from './test-run-request';
import { TestRunPorts } from './test-run-ports';
import { TestRunThrottle } from './test-run-throttle';
import { errorBody, TraceRecorder } from './trace-recorder';

/** What the gateway sends with every flow answer. */
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/**
 * Runs the editor's flow (saved or not) the way a live request runs it — compiled by the same
 * engine, with the project's integrations behind the gateway's ports, the same limits and
 * deadline — and reports what every block did (docs/decisions.md: why here and not on a gateway).
 */
@Injectable()
export class TestRunsService {
  private readonly options: Omit<ExecuteOptions, 'tracer'>;

  constructor(
    @Inject(CONFIG) config: ControlPlaneConfig,
    private readonly projects: ProjectsService,
    private readonly endpoints: EndpointsService,
    private readonly integrations: IntegrationsService,
    private readonly secrets: SecretsService,
    private readonly tables: TablesService,
    private readonly compiler: FlowCompiler,
    private readonly ports: TestRunPorts,
    private readonly throttle: TestRunThrottle,
    private readonly limits: ProjectLimits,
  ) {
    // Its own scheduler: long test flows take turns with each other, as on a gateway.
    const scheduler = new FairScheduler({ maxSliceMs: config.flow.limits.sliceMs, defer: setImmediate });
    this.options = { deadlineMs: config.flow.timeoutMs, limits: config.flow.limits, scheduler };
  }

  async run(accountId: string, projectId: string, endpointId: string, input: TestRunInput): Promise<TestRunResult> {
    const project = await this.projects.requireOwned(accountId, projectId);
    const draft = await this.endpoints.require(projectId, endpointId);
    if (input.flow) this.limits.assertFlowSize(input.flow);
    await this.throttle.reserve(accountId);
    const settings = { ...settingsOf(draft), ...definedOnly(input.settings ?? {}) };
    const { published: integrations, emailVerifiedDomains } = await this.integrations.forTestRun(projectId);
    const tables = await this.tables.forFlows(projectId);
    const secrets = await this.secrets.open(projectId);
    const context = { email_verified_domains: emailVerifiedDomains, tables, secret_names: [...secrets.live.keys()] };
    const outcome = this.compiler.compile(input.flow ?? flowOf(draft), settings, context);
    const mask = <T>(value: T): T => (secrets.masker === null ? value : secrets.masker.value(value));
    if (!outcome.ok) throw new AppError('invalid_flow', 'The flow cannot run; fix the errors listed in details', mask(outcome.diagnostics));
    const request = flowRequestOf(input.request, settings);
    const prepared = prepareFlow(outcome.compiled as Parameters<typeof prepareFlow>[0]);
    const ports = this.ports.forProject({ id: project.id, subdomain: project.subdomain, integrations, tables }, input.send_email);
    ports.secrets = secrets.preview;
    const tracer = new TraceRecorder(secrets.masker);
    const startedAt = performance.now();
    const result = await runFlow(prepared, request, ports, { ...this.options, tracer });
    const durationMs = performance.now() - startedAt;
    return {
      // Unlike a live answer, what the editor shows is masked: the Respond body too.
      response: { status: result.status, headers: { ...JSON_HEADERS }, body: mask(bodyOf(result)) },
      duration_ms: Math.round(durationMs * 1000) / 1000,
      diagnostics: mask(outcome.diagnostics),
      trace: tracer.entries,
    };
  }
}

/** The body exactly as a caller of the gateway parses it (JSON round trip: undefined dropped, `{}` without Respond body). */
function bodyOf(result: FlowResult): unknown {
  if (result.type === 'error') return errorBody(result);
  const json = result.body === undefined ? undefined : JSON.stringify(result.body);
  return JSON.parse(json === undefined ? '{}' : json) as unknown;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
