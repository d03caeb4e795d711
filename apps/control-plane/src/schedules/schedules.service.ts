import { Inject, Injectable } from '@nestjs/common';
import type { Diagnostic } from '@flowgate/flow-engine';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { EndpointsService } from '../endpoints/endpoints.service';
import { FlowCompiler } from '../endpoints/flow-compiler';
import { ProjectLimits } from '../endpoints/project-limits';
import { Clock } from '../infrastructure/clock';
import type { Tx } from '../infrastructure/transaction';
import { ProjectsService } from '../projects/projects.service';
import { PublicationService } from '../publication/publication.service';
import type { ScheduleInput, ScheduleView } from './dto/schedule.dto';
import { ScheduleClock } from './schedule-clock';
import { sameScheduleContent, scheduleContentOf, scheduleFlowOf, toScheduleView } from './schedule-content';
import { type ScheduleContent, type ScheduleRecord, SchedulesRepository } from './schedules.repository';

export interface ScheduleWithDiagnostics extends ScheduleView {
  diagnostics: Diagnostic[];
}

/**
 * Schedule drafts: create, list, read, Save (with `enabled`, which starts or stops the live
 * version before the answer), delete. Deploying lives in ScheduleDeploymentsService.
 */
@Injectable()
export class SchedulesService {
  constructor(
    private readonly schedules: SchedulesRepository,
    private readonly clock: ScheduleClock,
    private readonly projects: ProjectsService,
    private readonly endpoints: EndpointsService,
    private readonly publication: PublicationService,
    private readonly compiler: FlowCompiler,
    private readonly time: Clock,
    private readonly limits: ProjectLimits,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  async list(accountId: string, projectId: string): Promise<ScheduleView[]> {
    await this.projects.requireOwned(accountId, projectId);
    return Promise.all((await this.schedules.list(projectId)).map((record) => this.view(record)));
  }

  async get(accountId: string, projectId: string, scheduleId: string): Promise<ScheduleView> {
    await this.projects.requireOwned(accountId, projectId);
    return this.view(await this.require(projectId, scheduleId));
  }

  async create(accountId: string, projectId: string, input: ScheduleInput): Promise<ScheduleWithDiagnostics> {
    await this.projects.requireOwned(accountId, projectId);
    const content = scheduleContentOf(input, this.config.projectLimits.scheduleMinIntervalS);
    this.limits.assertFlowSize(content.flow);
    await this.limits.count(accountId, 'save');
    const created = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const max = this.config.projectLimits.maxSchedules;
      if ((await this.schedules.count(projectId, tx)) >= max)
        throw new AppError('too_many_schedules', `A project may have at most ${max} schedules (PROJECT_MAX_SCHEDULES); delete one first`);
      return this.schedules.create(tx, projectId, content, input.enabled, this.time.now());
    });
    return { ...(await this.view(created)), diagnostics: await this.validate(projectId, content) };
  }

  async save(accountId: string, projectId: string, scheduleId: string, input: ScheduleInput): Promise<ScheduleWithDiagnostics> {
    await this.projects.requireOwned(accountId, projectId);
    const content = scheduleContentOf(input, this.config.projectLimits.scheduleMinIntervalS);
    this.limits.assertFlowSize(content.flow);
    await this.limits.count(accountId, 'save');
    const saved = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const current = await this.requireIn(tx, projectId, scheduleId);
      const live = await this.liveOf(current, tx);
      const changed = !live || !sameScheduleContent(live, content);
      const record = await this.schedules.saveDraft(tx, scheduleId, content, input.enabled, changed ? this.time.now() : null);
      await this.syncClock(record, live);
      return record;
    });
    return { ...(await this.view(saved)), diagnostics: await this.validate(projectId, content) };
  }

  async delete(accountId: string, projectId: string, scheduleId: string): Promise<void> {
    await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      await this.requireIn(tx, projectId, scheduleId);
      await this.schedules.delete(tx, scheduleId);
      await this.clock.stop(scheduleId);
    });
  }

  /** Run now: the live version, once, as a tick would run it (202; 409 `conflict` when it is not deployed). */
  async runNow(accountId: string, projectId: string, scheduleId: string): Promise<string> {
    await this.projects.requireOwned(accountId, projectId);
    const record = await this.require(projectId, scheduleId);
    if (record.liveVersion === null) throw new AppError('conflict', 'The schedule is not deployed; deploy it first', [{ path: 'status', message: 'must be live' }]);
    return this.clock.runNow(projectId, scheduleId);
  }

  /** Its live version ticks exactly when it is live and enabled (called under the project's lock, before the answer). */
  async syncClock(record: ScheduleRecord, live: ScheduleContent | null): Promise<void> {
    if (live !== null && record.enabled) await this.clock.start(record.projectId, record.id, live.cron, live.timezone);
    else await this.clock.stop(record.id);
  }

  async liveOf(record: ScheduleRecord, db?: Tx): Promise<ScheduleContent | null> {
    return record.liveVersion === null ? null : this.schedules.findVersion(record.id, record.liveVersion, db);
  }

  async view(record: ScheduleRecord): Promise<ScheduleView> {
    return toScheduleView(record, await this.liveOf(record), this.time.now());
  }

  async require(projectId: string, scheduleId: string): Promise<ScheduleRecord> {
    const found = await this.schedules.find(projectId, scheduleId);
    if (!found) throw new AppError('schedule_not_found', 'Schedule not found');
    return found;
  }

  async requireIn(tx: Tx, projectId: string, scheduleId: string): Promise<ScheduleRecord> {
    const found = await this.schedules.find(projectId, scheduleId, tx);
    if (!found) throw new AppError('schedule_not_found', 'Schedule not found');
    return found;
  }

  async validate(projectId: string, content: ScheduleContent): Promise<Diagnostic[]> {
    const context = await this.endpoints.compileContext(projectId);
    return this.endpoints.maskSecrets(projectId, this.compiler.validateSchedule(scheduleFlowOf(content), context));
  }
}
