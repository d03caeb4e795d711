import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { projectIdParam } from '../common/uuid-param.pipe';
import { ApiDescriptionService } from './api-description.service';

@DashboardApi('projects')
@Controller('v1/projects/:projectId')
export class ApiDescriptionController {
  constructor(private readonly descriptions: ApiDescriptionService) {}

  @Get('openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @ApiOperation({ summary: "OpenAPI 3.1 document of the project's live endpoints (the same text as {base_url}/_openapi.json)" })
  @ApiOkResponse({ description: 'An OpenAPI 3.1 document', schema: { type: 'object' } })
  openApi(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string): Promise<string> {
    return this.descriptions.document(principal.accountId, projectId);
  }
}
