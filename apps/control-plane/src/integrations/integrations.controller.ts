import { Body, Controller, Delete, Get, Param, Put, type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { AppError } from '../common/app-error';
import { done, MessageResponseDto } from '../common/dto/message.dto';
import { projectIdParam } from '../common/uuid-param.pipe';
import {
  INTEGRATION_KINDS,
  IntegrationDto,
  IntegrationListDto,
  type IntegrationKindParam,
  PutEmailDto,
  PutTextGenerationDto,
} from './dto/integration.dto';
import { IntegrationsService } from './integrations.service';

const kindParam: PipeTransform<string, IntegrationKindParam> = {
  transform(value: string) {
    if (!(INTEGRATION_KINDS as readonly string[]).includes(value))
      throw new AppError('not_found', `Unknown integration kind; use ${INTEGRATION_KINDS.join(' or ')}`);
    return value as IntegrationKindParam;
  },
};

@DashboardApi('integrations')
@Controller('v1/projects/:projectId/integrations')
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Get()
  @ZodResponse({ status: 200, type: IntegrationListDto })
  async list(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string) {
    return { items: await this.integrations.list(principal.accountId, projectId) };
  }

  @Put('text-generation')
  @ZodResponse({ status: 200, type: IntegrationDto })
  putTextGeneration(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Body() body: PutTextGenerationDto,
  ) {
    return this.integrations.put(principal.accountId, projectId, { kind: 'text-generation', ...body });
  }

  @Put('email')
  @ZodResponse({ status: 200, type: IntegrationDto })
  putEmail(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Body() body: PutEmailDto) {
    return this.integrations.put(principal.accountId, projectId, { kind: 'email', ...body });
  }

  @Get(':kind')
  @ApiParam({ name: 'kind', enum: INTEGRATION_KINDS })
  @ZodResponse({ status: 200, type: IntegrationDto })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('kind', kindParam) kind: IntegrationKindParam,
  ) {
    return this.integrations.get(principal.accountId, projectId, kind);
  }

  @Delete(':kind')
  @ApiParam({ name: 'kind', enum: INTEGRATION_KINDS })
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('kind', kindParam) kind: IntegrationKindParam,
  ) {
    await this.integrations.remove(principal.accountId, projectId, kind);
    return done('Integration removed');
  }
}
