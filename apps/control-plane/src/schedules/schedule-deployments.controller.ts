import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { scheduleIdParam, projectIdParam } from '../common/uuid-param.pipe';
import { versionParam } from '../endpoints/deployments.controller';
import { ScheduleDto, ScheduleVersionDto, ScheduleVersionListDto, ScheduleWithDiagnosticsDto } from './dto/schedule.dto';
import { ScheduleDeploymentsService } from './schedule-deployments.service';

@DashboardApi('schedules')
@Controller('v1/projects/:projectId/schedules/:scheduleId')
export class ScheduleDeploymentsController {
  constructor(private readonly deployments: ScheduleDeploymentsService) {}

  @Post('deploy')
  @HttpCode(200)
  @ApiOperation({ summary: 'Validate, compile and make the draft live; starts it when enabled (400 invalid_flow, invalid_argument, function_not_live)' })
  @ZodResponse({ status: 200, type: ScheduleWithDiagnosticsDto })
  deploy(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('scheduleId', scheduleIdParam) scheduleId: string) {
    return this.deployments.deploy(principal.accountId, projectId, scheduleId);
  }

  @Post('undeploy')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop it before the answer (the draft and the versions stay)' })
  @ZodResponse({ status: 200, type: ScheduleDto })
  undeploy(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('scheduleId', scheduleIdParam) scheduleId: string) {
    return this.deployments.undeploy(principal.accountId, projectId, scheduleId);
  }

  @Get('versions')
  @ZodResponse({ status: 200, type: ScheduleVersionListDto })
  async versions(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('scheduleId', scheduleIdParam) scheduleId: string) {
    return { items: await this.deployments.versions(principal.accountId, projectId, scheduleId) };
  }

  @Get('versions/:version')
  @ZodResponse({ status: 200, type: ScheduleVersionDto })
  version(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('scheduleId', scheduleIdParam) scheduleId: string,
    @Param('version', versionParam) version: number,
  ) {
    return this.deployments.version(principal.accountId, projectId, scheduleId, version);
  }

  @Post('versions/:version/deploy')
  @HttpCode(200)
  @ApiOperation({ summary: 'Roll back: make version n live again, with its cron and time zone' })
  @ZodResponse({ status: 200, type: ScheduleDto })
  rollback(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('scheduleId', scheduleIdParam) scheduleId: string,
    @Param('version', versionParam) version: number,
  ) {
    return this.deployments.rollback(principal.accountId, projectId, scheduleId, version);
  }
}
