import { Injectable } from '@nestjs/common';
import type { CompileContext, Diagnostic } from '@flowgate/flow-engine';
import { AppError } from '../common/app-error';
import { Clock } from '../infrastructure/clock';
import { TablesService } from '../data-tables/tables.service';
import { IntegrationsService } from '../integrations/integrations.service';
import type { ProjectRecord } from '../projects/projects.repository';
import { ProjectsService } from '../projects/projects.service';
import { PublicationService } from '../publication/publication.service';
import { SecretsService } from '../secrets/secrets.service';
import type { EndpointInput, EndpointView } from './dto/endpoint.dto';
import { contentOf, flowOf, sameContent, settingsOf, toEndpointView } from './endpoint-content';
import { type EndpointContent, type EndpointRecord, EndpointsRepository } from './endpoints.repository';
import { FlowCompiler } from './flow-compiler';
import { FunctionCatalog } from '../functions/function-catalog';
import { type LimitedAction, ProjectLimits } from './project-limits';

export interface EndpointWithDiagnostics extends EndpointView {
  diagnostics: Diagnostic[];
}

/** Endpoint drafts: create, list, read, Save, delete. Deploying lives in DeploymentsService. */
@Injectable()
export class EndpointsService {
  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly projects: ProjectsService,
    private readonly integrations: IntegrationsService,
    private readonly tables: TablesService,
    private readonly publication: PublicationService,
    private readonly compiler: FlowCompiler,
    private readonly secrets: SecretsService,
    private readonly clock: Clock,
    private readonly limits: ProjectLimits,
    private readonly functions: FunctionCatalog,
  ) {}

  async list(accountId: string, projectId: string): Promise<EndpointView[]> {
    const project = await this.projects.requireOwned(accountId, projectId);
    const endpoints = await this.endpoints.list(projectId);
    const livePaths = await this.endpoints.livePaths(endpoints);
    return endpoints.map((endpoint) => toEndpointView(endpoint, this.projects.addresses(project.subdomain), livePaths.get(endpoint.id) ?? null));
  }

  async get(accountId: string, projectId: string, endpointId: string): Promise<EndpointView> {
    const project = await this.projects.requireOwned(accountId, projectId);
    return this.view(project, await this.require(projectId, endpointId));
  }

  /** A new draft, counted as a Save (or as an Import, for a file). */
  async create(accountId: string, projectId: string, input: EndpointInput, action: LimitedAction = 'save'): Promise<EndpointWithDiagnostics> {
    const project = await this.projects.requireOwned(accountId, projectId);
    const content = contentOf(input);
    this.limits.assertFlowSize(content.flow);
    await this.limits.count(accountId, action);
    // Under the project's lock, so that concurrent creations cannot pass the endpoint limit together;
    // published, so the preview address serves the new draft before the answer.
    const endpoint = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      await this.limits.assertRoomForEndpoint(tx, projectId);
      return this.endpoints.create(projectId, content, this.clock.now(), tx);
    });
    return { ...(await this.view(project, endpoint)), diagnostics: await this.validate(projectId, content) };
  }

  /** Save: drafts may be incomplete; validation findings come back as diagnostics and never block. */
  async save(accountId: string, projectId: string, endpointId: string, input: EndpointInput): Promise<EndpointWithDiagnostics> {
    const project = await this.projects.requireOwned(accountId, projectId);
    const content = contentOf(input);
    this.limits.assertFlowSize(content.flow);
    await this.limits.count(accountId, 'save');
    // Under the project's lock so the comparison with the live version cannot race a Deploy;
    // published, so the preview address serves the saved draft before the answer.
    const saved = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const endpoint = await this.endpoints.find(projectId, endpointId, tx);
      if (!endpoint) throw new AppError('endpoint_not_found', 'Endpoint not found');
      const live = endpoint.liveVersion === null ? null : await this.endpoints.findVersion(endpointId, endpoint.liveVersion, tx);
      const changed = !live || !sameContent(live, content);
      return this.endpoints.saveDraft(endpointId, content, changed ? this.clock.now() : null, tx);
    });
    return { ...(await this.view(project, saved)), diagnostics: await this.validate(projectId, content) };
  }

  /** Deleting a live endpoint takes it off the gateways before the answer. */
  async delete(accountId: string, projectId: string, endpointId: string): Promise<void> {
    await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      if (!(await this.endpoints.find(projectId, endpointId, tx))) throw new AppError('endpoint_not_found', 'Endpoint not found');
      await this.endpoints.delete(tx, endpointId);
    });
  }

  async require(projectId: string, endpointId: string): Promise<EndpointRecord> {
    const endpoint = await this.endpoints.find(projectId, endpointId);
    if (!endpoint) throw new AppError('endpoint_not_found', 'Endpoint not found');
    return endpoint;
  }

  async view(project: ProjectRecord, endpoint: EndpointRecord): Promise<EndpointView> {
    const livePaths = await this.endpoints.livePaths([endpoint]);
    return toEndpointView(endpoint, this.projects.addresses(project.subdomain), livePaths.get(endpoint.id) ?? null);
  }

  async validate(projectId: string, content: EndpointContent): Promise<Diagnostic[]> {
    return this.maskSecrets(projectId, this.compiler.validate(flowOf(content), settingsOf(content), await this.compileContext(projectId)));
  }

  /** Diagnostics quote what a block holds: a secret's value typed into a field is masked. */
  async maskSecrets(projectId: string, diagnostics: Diagnostic[]): Promise<Diagnostic[]> {
    if (diagnostics.length === 0) return diagnostics;
    const { masker } = await this.secrets.open(projectId);
    return masker === null ? diagnostics : masker.value(diagnostics);
  }

  /**
   * What Save, Deploy and test runs check a flow against: the email domains, the tables, the
   * secret names, the functions (their live versions, or their drafts for a test run) and
   * whether text generation is set up.
   */
  async compileContext(projectId: string, functionVersions: 'live' | 'draft' = 'live'): Promise<CompileContext> {
    const [domains, tables, secretNames, functions, textGeneration] = await Promise.all([
      this.integrations.emailVerifiedDomains(projectId),
      this.tables.forFlows(projectId),
      this.secrets.names(projectId),
      this.functions.callable(projectId, functionVersions),
      this.integrations.hasTextGeneration(projectId),
    ]);
    return { email_verified_domains: domains, tables, secret_names: secretNames, functions, function_versions: functionVersions, text_generation: textGeneration };
  }
}
