import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import { TablesService } from '../data-tables/tables.service';
import { flowOf, settingsOf } from '../endpoints/endpoint-content';
import { EndpointsService } from '../endpoints/endpoints.service';
import { FlowCompiler } from '../endpoints/flow-compiler';
import { ProjectLimits } from '../endpoints/project-limits';
import { IntegrationsService } from '../integrations/integrations.service';
import { ProjectsService } from '../projects/projects.service';
import { SecretsService } from '../secrets/secrets.service';
import type { TestRunInput, TestRunResult } from './dto/test-run.dto';
import { TestRunSandbox } from './sandbox/test-run-sandbox';
import { flowRequestOf } from './test-run-request';
import { TestRunThrottle } from './test-run-throttle';

/** What the gateway sends with every flow answer. */
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

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
  ) {}

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
    const ran = await this.sandbox.run({
      project: { id: project.id, subdomain: project.subdomain, integrations, tables },
      sendEmail: input.send_email,
      compiled: outcome.compiled,
      request: { ...request, query: [...request.query], headers: request.headers as Record<string, string> },
      // A test run runs a draft, like the preview address: the preview values where set.
      secrets: { values: [...secrets.preview], masked: secrets.masked },
    });
    return {
      // Masked in the thread (trace, body); unlike a live answer, the Respond body too.
      response: { status: ran.status, headers: { ...JSON_HEADERS }, body: ran.body },
      duration_ms: Math.round(ran.durationMs * 1000) / 1000,
      diagnostics: mask(outcome.diagnostics),
      trace: ran.trace,
    };
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
