import { Body, Controller, Delete, Param, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { CreateApiKeyDto, CreatedApiKeyDto } from '../api-keys/dto/api-key.dto';
import { done, MessageResponseDto } from '../common/dto/message.dto';
import { apiKeyIdParam, projectIdParam } from '../common/uuid-param.pipe';
import { ServiceTokenGuard } from './service-token.guard';

/**
 * Target of the gateway's `/admin/api-keys` relay (the gateway has checked the admin key and
 * relays status and body unchanged). Not in the public OpenAPI document.
 */
@ApiExcludeController()
@UseGuards(ServiceTokenGuard)
@Controller('internal/projects/:projectId/api-keys')
export class InternalApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @ZodResponse({ status: 201, type: CreatedApiKeyDto })
  create(@Param('projectId', projectIdParam) projectId: string, @Body() body: CreateApiKeyDto) {
    return this.keys.create({ projectId }, body);
  }

  @Delete(':keyId')
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async delete(@Param('projectId', projectIdParam) projectId: string, @Param('keyId', apiKeyIdParam) keyId: string) {
    await this.keys.delete({ projectId }, keyId);
    return done('API key deleted');
  }
}
