import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { projectIdParam } from '../common/uuid-param.pipe';
import { DeleteSecretQueryDto, PutSecretDto, SecretDto, SecretListDto } from './dto/secret.dto';
import { SecretsService } from './secrets.service';

@DashboardApi('secrets')
@Controller('v1/projects/:projectId/secrets')
export class SecretsController {
  constructor(private readonly secrets: SecretsService) {}

  @Get()
  @ApiOperation({ summary: 'The project secrets, never a value' })
  @ZodResponse({ status: 200, type: SecretListDto })
  async list(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string) {
    return { items: await this.secrets.list(principal.accountId, projectId) };
  }

  @Put(':name')
  @ApiOperation({ summary: 'Set a secret: 201 when new, 200 when replaced; every gateway reads the new value from the next request' })
  @ZodResponse({ status: 200, type: SecretDto })
  async put(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('name') name: string,
    @Body() body: PutSecretDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, secret } = await this.secrets.put(principal.accountId, projectId, name, body);
    res.status(created ? 201 : 200);
    return secret;
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a secret; 409 secret_in_use while live endpoints read it, unless force=true' })
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('name') name: string,
    @Query() query: DeleteSecretQueryDto,
  ): Promise<void> {
    await this.secrets.remove(principal.accountId, projectId, name, query.force);
  }
}
