import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { done, MessageResponseDto } from '../common/dto/message.dto';
import { apiKeyIdParam, projectIdParam } from '../common/uuid-param.pipe';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyListDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';

@DashboardApi('api-keys')
@Controller('v1/projects/:projectId/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ZodResponse({ status: 200, type: ApiKeyListDto })
  async list(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string) {
    return { items: await this.keys.list(principal.accountId, projectId) };
  }

  @Post()
  @ApiOperation({ summary: 'Create a key; the secret is in `key` and is shown only this once' })
  @ZodResponse({ status: 201, type: CreatedApiKeyDto })
  create(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Body() body: CreateApiKeyDto) {
    return this.keys.create({ projectId, accountId: principal.accountId }, body);
  }

  @Delete(':keyId')
  @ApiOperation({ summary: 'Delete a key; it fails on the very next gateway request' })
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('keyId', apiKeyIdParam) keyId: string,
  ) {
    await this.keys.delete({ projectId, accountId: principal.accountId }, keyId);
    return done('API key deleted');
  }
}
