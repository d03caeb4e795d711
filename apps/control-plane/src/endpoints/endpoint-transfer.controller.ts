import { Body, Controller, Get, Header, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { endpointIdParam, projectIdParam } from '../common/uuid-param.pipe';
import { EndpointExportDto, EndpointExportFileDto } from './dto/endpoint-export.dto';
import { EndpointWithDiagnosticsDto } from './dto/endpoint.dto';
import { EndpointTransferService } from './endpoint-transfer.service';

@DashboardApi('endpoints')
@Controller('v1/projects/:projectId/endpoints')
export class EndpointTransferController {
  constructor(private readonly transfer: EndpointTransferService) {}

  @Get(':endpointId/export')
  @Header('content-disposition', 'attachment; filename="endpoint.flowgate.json"')
  @ApiOperation({ summary: 'The draft as a file: {flowgate_export: 1, endpoint: {name, method, path, auth, query_params, flow}}' })
  @ZodResponse({ status: 200, type: EndpointExportFileDto })
  export(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
  ) {
    return this.transfer.export(principal.accountId, projectId, endpointId);
  }

  @Post('import')
  @ApiOperation({ summary: 'A new draft from an export file (409 path_taken when the method and path are taken; never deployed)' })
  @ZodResponse({ status: 201, type: EndpointWithDiagnosticsDto })
  import(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Body() body: EndpointExportDto) {
    return this.transfer.import(principal.accountId, projectId, body);
  }
}
