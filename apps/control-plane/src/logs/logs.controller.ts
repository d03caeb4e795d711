import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { projectIdParam } from '../common/uuid-param.pipe';
import { LogPageDto, LogsQueryDto } from './dto/logs.dto';
import { LogsService } from './logs.service';

@DashboardApi('logs')
@Controller('v1/projects/:projectId/logs')
export class LogsController {
  constructor(private readonly logs: LogsService) {}

  @Get()
  @ApiOperation({ summary: 'Request logs, newest first, filtered, with keyset cursors in both directions' })
  @ZodResponse({ status: 200, type: LogPageDto })
  page(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Query() query: LogsQueryDto) {
    return this.logs.page(principal.accountId, projectId, query);
  }
}
