import { Controller, Get, HttpCode, Param, Post, type PipeTransform } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { AppError } from '../common/app-error';
import { endpointIdParam, projectIdParam } from '../common/uuid-param.pipe';
import { EndpointDto, EndpointWithDiagnosticsDto, VersionDto, VersionListDto } from './dto/endpoint.dto';
import { DeploymentsService } from './deployments.service';

export const versionParam: PipeTransform<string, number> = {
  transform(value: string) {
    if (!/^[1-9][0-9]{0,8}$/.test(value)) throw new AppError('not_found', 'Version not found');
    return Number(value);
  },
};

@DashboardApi('endpoints')
@Controller('v1/projects/:projectId/endpoints/:endpointId')
export class DeploymentsController {
  constructor(private readonly deployments: DeploymentsService) {}

  @Post('deploy')
  @HttpCode(200)
  @ApiOperation({ summary: 'Validate, compile and make the draft live as a new version (400 invalid_flow with diagnostics)' })
  @ZodResponse({ status: 200, type: EndpointWithDiagnosticsDto })
  deploy(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
  ) {
    return this.deployments.deploy(principal.accountId, projectId, endpointId);
  }

  @Post('undeploy')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop serving the endpoint (the draft and the versions stay)' })
  @ZodResponse({ status: 200, type: EndpointDto })
  undeploy(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
  ) {
    return this.deployments.undeploy(principal.accountId, projectId, endpointId);
  }

  @Get('versions')
  @ZodResponse({ status: 200, type: VersionListDto })
  async versions(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
  ) {
    return { items: await this.deployments.versions(principal.accountId, projectId, endpointId) };
  }

  @Get('versions/:version')
  @ZodResponse({ status: 200, type: VersionDto })
  version(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
    @Param('version', versionParam) version: number,
  ) {
    return this.deployments.version(principal.accountId, projectId, endpointId, version);
  }

  @Post('versions/:version/deploy')
  @HttpCode(200)
  @ApiOperation({ summary: 'Roll back: make version n live again' })
  @ZodResponse({ status: 200, type: EndpointDto })
  rollback(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
    @Param('version', versionParam) version: number,
  ) {
    return this.deployments.rollback(principal.accountId, projectId, endpointId, version);
  }
}
