import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import { EndpointsService } from '../endpoints/endpoints.service';
import { FlowCompiler } from '../endpoints/flow-compiler';
import { ProjectLimits } from '../endpoints/project-limits';
import { deployRefusal } from '../functions/deploy-refusal';
import { Clock } from '../infrastructure/clock';
import { ProjectsService } from '../projects/projects.service';
import { PublicationService } from '../publication/publication.service';
import type { ScheduleVersionView, ScheduleView } from './dto/schedule.dto';
import { ScheduleClock } from './schedule-clock';
import { sameScheduleContent, scheduleFlowOf, toScheduleVersionView } from './schedule-content';
import { SchedulesRepository } from './schedules.repository';
import { type ScheduleWithDiagnostics, SchedulesService } from './schedules.service';

/**
 * Deploy (starts the schedule when enabled), undeploy (stops it), versions and rollback, as
 * endpoints have them; the job scheduler changes under the project's lock, before the answer.
 */
@Injectable()
export class ScheduleDeploymentsService {
  constructor(
    private readonly schedules: SchedulesRepository,
    private readonly drafts: SchedulesService,
    private readonly clock: ScheduleClock,
    private readonly endpoints: EndpointsService,
    private readonly projects: ProjectsService,
    private readonly publication: PublicationService,
    private readonly compiler: FlowCompiler,
    private readonly time: Clock,
    private readonly limits: ProjectLimits,
  ) {}

  async deploy(accountId: string, projectId: string, scheduleId: string): Promise<ScheduleWithDiagnostics> {
    await this.projects.requireOwned(accountId, projectId);
    await this.limits.count(accountId, 'deploy');
    const context = await this.endpoints.compileContext(projectId);
    const { record, diagnostics } = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const draft = await this.drafts.requireIn(tx, projectId, scheduleId);
      const outcome = this.compiler.compileSchedule(scheduleFlowOf(draft), context);
      if (!outcome.ok) throw deployRefusal(await this.endpoints.maskSecrets(projectId, outcome.diagnostics));
      const live = await this.drafts.liveOf(draft, tx);
      const version = live && sameScheduleContent(live, draft) ? (draft.liveVersion as number) : await this.schedules.createVersion(tx, scheduleId, draft, outcome.compiled);
      const deployed = await this.schedules.setLive(tx, scheduleId, version, null);
      await this.drafts.syncClock(deployed, draft);
      return { record: deployed, diagnostics: outcome.diagnostics };
    });
    return { ...(await this.drafts.view(record)), diagnostics: await this.endpoints.maskSecrets(projectId, diagnostics) };
  }

  async undeploy(accountId: string, projectId: string, scheduleId: string): Promise<ScheduleView> {
    await this.projects.requireOwned(accountId, projectId);
    await this.limits.count(accountId, 'deploy');
    const record = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const current = await this.drafts.requireIn(tx, projectId, scheduleId);
      const stopped = await this.schedules.setLive(tx, scheduleId, null, current.draftChangedAt ?? this.time.now());
      await this.clock.stop(scheduleId);
      return stopped;
    });
    return this.drafts.view(record);
  }

  async versions(accountId: string, projectId: string, scheduleId: string): Promise<ScheduleVersionView[]> {
    await this.projects.requireOwned(accountId, projectId);
    const current = await this.drafts.require(projectId, scheduleId);
    return (await this.schedules.listVersions(scheduleId)).map((version) => toScheduleVersionView(version, current.liveVersion));
  }

  async version(accountId: string, projectId: string, scheduleId: string, number: number): Promise<ScheduleVersionView> {
    await this.projects.requireOwned(accountId, projectId);
    const current = await this.drafts.require(projectId, scheduleId);
    const version = await this.schedules.findVersion(scheduleId, number);
    if (!version) throw new AppError('not_found', `Version ${number} of this schedule does not exist`);
    return toScheduleVersionView(version, current.liveVersion);
  }

  async rollback(accountId: string, projectId: string, scheduleId: string, number: number): Promise<ScheduleView> {
    await this.projects.requireOwned(accountId, projectId);
    await this.limits.count(accountId, 'deploy');
    const record = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const draft = await this.drafts.requireIn(tx, projectId, scheduleId);
      const version = await this.schedules.findVersion(scheduleId, number, tx);
      if (!version) throw new AppError('not_found', `Version ${number} of this schedule does not exist`);
      const live = await this.schedules.setLive(tx, scheduleId, number, sameScheduleContent(version, draft) ? null : this.time.now());
      await this.drafts.syncClock(live, version);
      return live;
    });
    return this.drafts.view(record);
  }
}
