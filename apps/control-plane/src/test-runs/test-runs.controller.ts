import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { endpointIdParam, functionIdParam, projectIdParam } from '../common/uuid-param.pipe';
import { FunctionTestRunInputDto, TestRunInputDto, TestRunResultDto } from './dto/test-run.dto';
import { TestRunsService } from './test-runs.service';

@DashboardApi('endpoints')
@Controller('v1/projects/:projectId/endpoints/:endpointId/test-runs')
export class TestRunsController {
  constructor(private readonly testRuns: TestRunsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Run the flow (the saved draft, or the flow and settings given) with a sample request, as a live request would run, and trace every block (400 invalid_flow; 429 past the per-account limit)',
  })
  @ZodResponse({ status: 200, type: TestRunResultDto })
  run(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
    @Body() body: TestRunInputDto,
  ) {
    return this.testRuns.run(principal.accountId, projectId, endpointId, body);
  }
}

@DashboardApi('functions')
@Controller('v1/projects/:projectId/functions/:functionId/test-runs')
export class FunctionTestRunsController {
  constructor(private readonly testRuns: TestRunsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "Run the function (the saved draft, or the flow and inputs given) with `args`, and trace its blocks under the call (400 invalid_flow)" })
  @ZodResponse({ status: 200, type: TestRunResultDto })
  run(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('functionId', functionIdParam) functionId: string,
    @Body() body: FunctionTestRunInputDto,
  ) {
    return this.testRuns.runFunction(principal.accountId, projectId, functionId, body);
  }
}
