import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { projectIdParam, UuidParam } from '../common/uuid-param.pipe';
import { LogStatsDto, LogStatsQueryDto } from './dto/log-stats.dto';
import { LogDetailDto, LogDetailQueryDto, LogPageDto, LogsQueryDto } from './dto/logs.dto';
import { LogStatsService } from './log-stats.service';
import { LogsService } from './logs.service';

const logIdParam = new UuidParam('not_found', 'Log entry not found');

@DashboardApi('logs')
@Controller('v1/projects/:projectId/logs')
export class LogsController {
  constructor(
    private readonly logs: LogsService,
    private readonly logStats: LogStatsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Request logs, newest first, filtered, with keyset cursors in both directions' })
  @ZodResponse({ status: 200, type: LogPageDto })
  page(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Query() query: LogsQueryDto) {
    return this.logs.page(principal.accountId, projectId, query);
  }

  // Declared before `:logId` so that `stats` is not taken for an id.
  @Get('stats')
  @ApiOperation({ summary: 'Requests, errors and latency percentiles over time, from per-minute rollups' })
  @ZodResponse({ status: 200, type: LogStatsDto })
  stats(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Query() query: LogStatsQueryDto) {
    return this.logStats.stats(principal.accountId, projectId, query);
  }

  @Get(':logId')
  @ApiOperation({ summary: 'One log entry with its key name, query, error message and the block that failed' })
  @ZodResponse({ status: 200, type: LogDetailDto })
  detail(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('logId', logIdParam) logId: string,
    @Query() query: LogDetailQueryDto,
  ) {
    return this.logs.detail(principal.accountId, projectId, logId, query.time);
  }
}
