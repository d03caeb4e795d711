import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { done, MessageResponseDto } from '../common/dto/message.dto';
import { projectIdParam, scheduleIdParam } from '../common/uuid-param.pipe';
import { RunAcceptedDto, SaveScheduleDto, ScheduleDto, ScheduleListDto, ScheduleWithDiagnosticsDto } from './dto/schedule.dto';
import { SchedulesService } from './schedules.service';

@DashboardApi('schedules')
@Controller('v1/projects/:projectId/schedules')
export class SchedulesController {
  constructor(private readonly schedules: SchedulesService) {}

  @Get()
  @ZodResponse({ status: 200, type: ScheduleListDto })
  async list(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string) {
    return { items: await this.schedules.list(principal.accountId, projectId) };
  }

  @Post()
  @ApiOperation({ summary: 'A new schedule draft (400 naming cron or timezone; 422 too_many_schedules)' })
  @ZodResponse({ status: 201, type: ScheduleWithDiagnosticsDto })
  create(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Body() body: SaveScheduleDto) {
    return this.schedules.create(principal.accountId, projectId, body);
  }

  @Get(':scheduleId')
  @ZodResponse({ status: 200, type: ScheduleDto })
  get(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('scheduleId', scheduleIdParam) scheduleId: string) {
    return this.schedules.get(principal.accountId, projectId, scheduleId);
  }

  @Put(':scheduleId')
  @ApiOperation({ summary: 'Save the draft; `enabled` starts or stops the live version before the answer' })
  @ZodResponse({ status: 200, type: ScheduleWithDiagnosticsDto })
  save(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('scheduleId', scheduleIdParam) scheduleId: string,
    @Body() body: SaveScheduleDto,
  ) {
    return this.schedules.save(principal.accountId, projectId, scheduleId, body);
  }

  @Delete(':scheduleId')
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async delete(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('scheduleId', scheduleIdParam) scheduleId: string) {
    await this.schedules.delete(principal.accountId, projectId, scheduleId);
    return done('Schedule deleted');
  }

  @Post(':scheduleId/run')
  @HttpCode(202)
  @ApiOperation({ summary: 'Run the live version now, once (202; 409 conflict when not deployed)' })
  @ZodResponse({ status: 202, type: RunAcceptedDto })
  async run(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('scheduleId', scheduleIdParam) scheduleId: string) {
    const jobId = await this.schedules.runNow(principal.accountId, projectId, scheduleId);
    return { success: true as const, message: 'Run queued', job_id: jobId };
  }
}
