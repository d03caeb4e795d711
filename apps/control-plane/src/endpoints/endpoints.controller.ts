import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { done, MessageResponseDto } from '../common/dto/message.dto';
import { endpointIdParam, projectIdParam } from '../common/uuid-param.pipe';
import { EndpointDto, EndpointListDto, EndpointWithDiagnosticsDto, SaveEndpointDto } from './dto/endpoint.dto';
import { EndpointsService } from './endpoints.service';

@DashboardApi('endpoints')
@Controller('v1/projects/:projectId/endpoints')
export class EndpointsController {
  constructor(private readonly endpoints: EndpointsService) {}

  @Get()
  @ZodResponse({ status: 200, type: EndpointListDto })
  async list(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string) {
    return { items: await this.endpoints.list(principal.accountId, projectId) };
  }

  @Post()
  @ZodResponse({ status: 201, type: EndpointWithDiagnosticsDto })
  create(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Body() body: SaveEndpointDto) {
    return this.endpoints.create(principal.accountId, projectId, body);
  }

  @Get(':endpointId')
  @ZodResponse({ status: 200, type: EndpointDto })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
  ) {
    return this.endpoints.get(principal.accountId, projectId, endpointId);
  }

  @Put(':endpointId')
  @ZodResponse({ status: 200, type: EndpointWithDiagnosticsDto })
  save(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
    @Body() body: SaveEndpointDto,
  ) {
    return this.endpoints.save(principal.accountId, projectId, endpointId, body);
  }

  @Delete(':endpointId')
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('endpointId', endpointIdParam) endpointId: string,
  ) {
    await this.endpoints.delete(principal.accountId, projectId, endpointId);
    return done('Endpoint deleted');
  }
}
