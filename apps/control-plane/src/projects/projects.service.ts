import { Inject, Injectable } from '@nestjs/common';
import { previewSubdomain } from '@flowgate/contracts';
import { AppError, invalidRequest } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { dropProjectStorage } from '@flowgate/data-tables';
import { DataDatabase } from '../infrastructure/data-database';
import { PublicationService } from '../publication/publication.service';
import type { ProjectView } from './dto/project.dto';
import { subdomainSchema } from './subdomain';
import { type ProjectRecord, ProjectsRepository } from './projects.repository';

export interface ProjectChanges {
  name?: string;
  subdomain?: string;
  require_auth?: boolean;
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly publication: PublicationService,
    private readonly data: DataDatabase,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  /** The public address of a subdomain, from GATEWAY_PUBLIC_URL. */
  baseUrl(subdomain: string): string {
    return this.config.gatewayPublicUrl.replace('{subdomain}', subdomain);
  }

  /** The live and preview base URLs of a subdomain. */
  addresses(subdomain: string): { live: string; preview: string } {
    return { live: this.baseUrl(subdomain), preview: this.baseUrl(previewSubdomain(subdomain)) };
  }

  /** The project if it belongs to the account; otherwise 404, exactly as for an unknown id. */
  async requireOwned(accountId: string, projectId: string): Promise<ProjectRecord> {
    const project = await this.projects.findOwned(accountId, projectId);
    if (!project) throw new AppError('project_not_found', 'Project not found');
    return project;
  }

  async list(accountId: string): Promise<ProjectView[]> {
    return (await this.projects.listByAccount(accountId)).map((project) => this.toView(project));
  }

  async get(accountId: string, projectId: string): Promise<ProjectView> {
    return this.toView(await this.requireOwned(accountId, projectId));
  }

  async create(accountId: string, input: { name: string; subdomain: string }): Promise<ProjectView> {
    const project = await this.publication.publishNewProject((tx) => this.projects.create(tx, { accountId, ...input }));
    return this.toView(project);
  }

  /**
   * A subdomain or require_auth change is published before the answer; a name change only
   * rewrites the API description (the name is its title), nothing the gateways route by.
   */
  async update(accountId: string, projectId: string, changes: ProjectChanges): Promise<ProjectView> {
    const current = await this.requireOwned(accountId, projectId);
    const data = { name: changes.name, subdomain: changes.subdomain, requireAuth: changes.require_auth };
    if (data.subdomain !== undefined && data.subdomain !== current.subdomain) {
      const checked = subdomainSchema.safeParse(data.subdomain);
      if (!checked.success) throw invalidRequest('The request is not valid', [{ path: 'subdomain', message: checked.error.issues[0]!.message }]);
    }
    const servingChange =
      (data.subdomain !== undefined && data.subdomain !== current.subdomain) ||
      (data.requireAuth !== undefined && data.requireAuth !== current.requireAuth);
    const updated = servingChange
      ? await this.publication.changeServing({ projectId, accountId }, (tx) => this.projects.update(projectId, data, tx))
      : await this.publication.changeDescription({ projectId, accountId }, (tx) => this.projects.update(projectId, { name: data.name }, tx));
    return this.toView(updated);
  }

  /** Stops the project's traffic (its Redis records go first) and removes its endpoints, versions, keys. */
  async delete(accountId: string, projectId: string): Promise<void> {
    await this.publication.deleteProject({ projectId, accountId }, (tx) => this.projects.delete(tx, projectId));
    // The project's rows go with it (its schema in the data database).
    await dropProjectStorage(this.data.pool, projectId);
  }

  toView(project: ProjectRecord): ProjectView {
    return {
      id: project.id,
      name: project.name,
      subdomain: project.subdomain,
      require_auth: project.requireAuth,
      base_url: this.baseUrl(project.subdomain),
      created_at: project.createdAt.toISOString(),
      updated_at: project.updatedAt.toISOString(),
    };
  }
}
