import { Injectable } from '@nestjs/common';
import type { Diagnostic } from '@flowgate/flow-engine';
import { AppError } from '../common/app-error';
import { Clock } from '../infrastructure/clock';
import { TablesService } from '../data-tables/tables.service';
import { IntegrationsService } from '../integrations/integrations.service';
import type { ProjectRecord } from '../projects/projects.repository';
import { ProjectsService } from '../projects/projects.service';
import { PublicationService } from '../publication/publication.service';
import type { EndpointInput, EndpointView } from './dto/endpoint.dto';
import { contentOf, flowOf, sameContent, settingsOf, toEndpointView } from './endpoint-content';
import { type EndpointContent, type EndpointRecord, EndpointsRepository } from './endpoints.repository';
import { FlowCompiler } from './flow-compiler';
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
    private readonly clock: Clock,
    private readonly limits: ProjectLimits,
  ) {}

  async list(accountId: string, projectId: string): Promise<EndpointView[]> {
    const project = await this.projects.requireOwned(accountId, projectId);
    const endpoints = await this.endpoints.list(projectId);
    const livePaths = await this.endpoints.livePaths(endpoints);
    return endpoints.map((endpoint) => toEndpointView(endpoint, this.projects.baseUrl(project.subdomain), livePaths.get(endpoint.id) ?? null));
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
    // Under the project's lock, so that concurrent creations cannot pass the endpoint limit together.
    const endpoint = await this.publication.underLock({ projectId, accountId }, async (tx) => {
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
    // Under the project's lock so the comparison with the live version cannot race a Deploy.
    const saved = await this.publication.underLock({ projectId, accountId }, async (tx) => {
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
    return toEndpointView(endpoint, this.projects.baseUrl(project.subdomain), livePaths.get(endpoint.id) ?? null);
  }

  async validate(projectId: string, content: EndpointContent): Promise<Diagnostic[]> {
    const context = { email_verified_domains: await this.integrations.emailVerifiedDomains(projectId), tables: await this.tables.forFlows(projectId) };
    return this.compiler.validate(flowOf(content), settingsOf(content), context);
  }
}
