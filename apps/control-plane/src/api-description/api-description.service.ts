import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import { ProjectsService } from '../projects/projects.service';
import { PublicationService } from '../publication/publication.service';
import { PublicationStore } from '../publication/publication.store';

/**
 * The project's OpenAPI document exactly as the gateways serve it at `/_openapi.json`: the text
 * the last publication wrote to Redis. Nothing is built per request.
 */
@Injectable()
export class ApiDescriptionService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly store: PublicationStore,
    private readonly publication: PublicationService,
  ) {}

  async document(accountId: string, projectId: string): Promise<string> {
    await this.projects.requireOwned(accountId, projectId);
    const published = await this.store.openApi(projectId);
    if (published !== null) return published;
    // Redis lost the project's state (the reconciler will notice too): publish it again now.
    if (!(await this.publication.republishProject(projectId))) throw new AppError('project_not_found', 'Project not found');
    const republished = await this.store.openApi(projectId);
    if (republished === null) throw new AppError('unavailable', 'The API description is not available right now; try again', undefined, { 'Retry-After': '1' });
    return republished;
  }
}
