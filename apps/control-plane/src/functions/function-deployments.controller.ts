import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { functionIdParam, projectIdParam } from '../common/uuid-param.pipe';
import { versionParam } from '../endpoints/deployments.controller';
import { FunctionDto, FunctionVersionDto, FunctionVersionListDto, FunctionWithDiagnosticsDto } from './dto/function.dto';
import { FunctionDeploymentsService } from './function-deployments.service';

@DashboardApi('functions')
@Controller('v1/projects/:projectId/functions/:functionId')
export class FunctionDeploymentsController {
  constructor(private readonly deployments: FunctionDeploymentsService) {}

  @Post('deploy')
  @HttpCode(200)
  @ApiOperation({ summary: 'Validate, compile and make the draft live (400 invalid_flow, invalid_argument, function_not_live or function_cycle)' })
  @ZodResponse({ status: 200, type: FunctionWithDiagnosticsDto })
  deploy(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('functionId', functionIdParam) functionId: string) {
    return this.deployments.deploy(principal.accountId, projectId, functionId);
  }

  @Post('undeploy')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop serving the function (409 function_in_use while live flows call it)' })
  @ZodResponse({ status: 200, type: FunctionDto })
  undeploy(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('functionId', functionIdParam) functionId: string) {
    return this.deployments.undeploy(principal.accountId, projectId, functionId);
  }

  @Get('versions')
  @ZodResponse({ status: 200, type: FunctionVersionListDto })
  async versions(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('functionId', functionIdParam) functionId: string) {
    return { items: await this.deployments.versions(principal.accountId, projectId, functionId) };
  }

  @Get('versions/:version')
  @ZodResponse({ status: 200, type: FunctionVersionDto })
  version(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('functionId', functionIdParam) functionId: string,
    @Param('version', versionParam) version: number,
  ) {
    return this.deployments.version(principal.accountId, projectId, functionId, version);
  }

  @Post('versions/:version/deploy')
  @HttpCode(200)
  @ApiOperation({ summary: 'Roll back: make version n live again (400 function_cycle when its calls now make a cycle)' })
  @ZodResponse({ status: 200, type: FunctionDto })
  rollback(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('functionId', functionIdParam) functionId: string,
    @Param('version', versionParam) version: number,
  ) {
    return this.deployments.rollback(principal.accountId, projectId, functionId, version);
  }
}
