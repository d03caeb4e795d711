import { Injectable } from '@nestjs/common';
import { AppError, conflict } from '../common/app-error';
import { Clock } from '../infrastructure/clock';
import type { Tx } from '../infrastructure/transaction';
import { ProjectsService } from '../projects/projects.service';
import { PublicationService } from '../publication/publication.service';
import type { EndpointView, VersionView } from './dto/endpoint.dto';
import { flowOf, sameContent, settingsOf, toVersionView } from './endpoint-content';
import { type EndpointContent, type EndpointRecord, EndpointsRepository } from './endpoints.repository';
import { type EndpointWithDiagnostics, EndpointsService } from './endpoints.service';
import { FlowCompiler } from './flow-compiler';
import { ProjectLimits } from './project-limits';
import { deployRefusal } from '../functions/deploy-refusal';

/**
 * Deploy, undeploy, versions and rollback. Each runs under the project's publication lock, so
 * the version it makes live is what the gateways serve when the answer leaves.
 */
@Injectable()
export class DeploymentsService {
  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly drafts: EndpointsService,
    private readonly projects: ProjectsService,
    private readonly publication: PublicationService,
    private readonly compiler: FlowCompiler,
    private readonly clock: Clock,
    private readonly limits: ProjectLimits,
  ) {}

  /** Validates and compiles the draft, freezes it as the next version (unless it equals the live one) and makes it live. */
  async deploy(accountId: string, projectId: string, endpointId: string): Promise<EndpointWithDiagnostics> {
    const project = await this.projects.requireOwned(accountId, projectId);
    await this.limits.count(accountId, 'deploy');
    const context = await this.drafts.compileContext(projectId);
    const { endpoint, diagnostics } = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const draft = await this.requireIn(tx, projectId, endpointId);
      const outcome = this.compiler.compile(flowOf(draft), settingsOf(draft), context);
      if (!outcome.ok) throw deployRefusal(await this.drafts.maskSecrets(projectId, outcome.diagnostics));
      const live = draft.liveVersion === null ? null : await this.endpoints.findVersion(endpointId, draft.liveVersion, tx);
      if (live && sameContent(live, draft)) return { endpoint: await this.endpoints.setLive(tx, endpointId, live.version, null), diagnostics: outcome.diagnostics };
      await this.assertRouteFree(tx, projectId, endpointId, draft);
      await this.limits.assertLiveSize(tx, projectId, endpointId, draft);
      const version = await this.endpoints.createVersion(tx, endpointId, draft, outcome.compiled);
      return { endpoint: await this.endpoints.setLive(tx, endpointId, version, null), diagnostics: outcome.diagnostics };
    });
    await this.publication.endCachedAnswers(projectId, endpointId);
    return { ...(await this.drafts.view(project, endpoint)), diagnostics: await this.drafts.maskSecrets(projectId, diagnostics) };
  }

  async undeploy(accountId: string, projectId: string, endpointId: string): Promise<EndpointView> {
    const project = await this.projects.requireOwned(accountId, projectId);
    await this.limits.count(accountId, 'deploy'); // republishes the project like a Deploy
    const endpoint = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const current = await this.requireIn(tx, projectId, endpointId);
      return this.endpoints.setLive(tx, endpointId, null, current.draftChangedAt ?? this.clock.now());
    });
    await this.publication.endCachedAnswers(projectId, endpointId);
    return this.drafts.view(project, endpoint);
  }

  async versions(accountId: string, projectId: string, endpointId: string): Promise<VersionView[]> {
    await this.projects.requireOwned(accountId, projectId);
    const endpoint = await this.drafts.require(projectId, endpointId);
    return (await this.endpoints.listVersions(endpointId)).map((version) => toVersionView(version, endpoint.liveVersion));
  }

  async version(accountId: string, projectId: string, endpointId: string, number: number): Promise<VersionView> {
    await this.projects.requireOwned(accountId, projectId);
    const endpoint = await this.drafts.require(projectId, endpointId);
    const version = await this.endpoints.findVersion(endpointId, number);
    if (!version) throw new AppError('not_found', `Version ${number} of this endpoint does not exist`);
    return toVersionView(version, endpoint.liveVersion);
  }

  /** Rollback: version n (already compiled) becomes live again; the draft is left as it is. */
  async rollback(accountId: string, projectId: string, endpointId: string, number: number): Promise<EndpointView> {
    const project = await this.projects.requireOwned(accountId, projectId);
    await this.limits.count(accountId, 'deploy');
    const endpoint = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const draft = await this.requireIn(tx, projectId, endpointId);
      const version = await this.endpoints.findVersion(endpointId, number, tx);
      if (!version) throw new AppError('not_found', `Version ${number} of this endpoint does not exist`);
      await this.assertRouteFree(tx, projectId, endpointId, version);
      await this.limits.assertLiveSize(tx, projectId, endpointId, version);
      return this.endpoints.setLive(tx, endpointId, number, sameContent(version, draft) ? null : this.clock.now());
    });
    await this.publication.endCachedAnswers(projectId, endpointId);
    return this.drafts.view(project, endpoint);
  }

  private async requireIn(tx: Tx, projectId: string, endpointId: string): Promise<EndpointRecord> {
    const endpoint = await this.endpoints.find(projectId, endpointId, tx);
    if (!endpoint) throw new AppError('endpoint_not_found', 'Endpoint not found');
    return endpoint;
  }

  /** Drafts are unique per (method, path), but a live version may still hold a route another draft moved to. */
  private async assertRouteFree(tx: Tx, projectId: string, endpointId: string, content: EndpointContent): Promise<void> {
    if (await this.endpoints.liveRouteTaken(tx, projectId, endpointId, content.method, content.path))
      throw conflict('path', `another live endpoint of this project already serves ${content.method} ${content.path}`);
  }
}
