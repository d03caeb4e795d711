import { Body, Controller, Delete, Get, Header, Param, Post, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { done, MessageResponseDto } from '../common/dto/message.dto';
import { functionIdParam, projectIdParam } from '../common/uuid-param.pipe';
import { FunctionDto, FunctionExportDto, FunctionExportFileDto, FunctionListDto, FunctionWithDiagnosticsDto, SaveFunctionDto, FUNCTION_EXPORT_FORMAT } from './dto/function.dto';
import { FunctionsService } from './functions.service';

@DashboardApi('functions')
@Controller('v1/projects/:projectId/functions')
export class FunctionsController {
  constructor(private readonly functions: FunctionsService) {}

  @Get()
  @ZodResponse({ status: 200, type: FunctionListDto })
  async list(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string) {
    return { items: await this.functions.list(principal.accountId, projectId) };
  }

  @Post()
  @ZodResponse({ status: 201, type: FunctionWithDiagnosticsDto })
  create(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Body() body: SaveFunctionDto) {
    return this.functions.create(principal.accountId, projectId, body);
  }

  @Post('import')
  @ApiOperation({ summary: 'A new draft from an export file (409 conflict when the name is taken; never deployed)' })
  @ZodResponse({ status: 201, type: FunctionWithDiagnosticsDto })
  import(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Body() body: FunctionExportDto) {
    return this.functions.create(principal.accountId, projectId, body.function, 'import');
  }

  @Get(':functionId')
  @ZodResponse({ status: 200, type: FunctionDto })
  get(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('functionId', functionIdParam) functionId: string) {
    return this.functions.get(principal.accountId, projectId, functionId);
  }

  @Get(':functionId/export')
  @Header('content-disposition', 'attachment; filename="function.flowgate.json"')
  @ApiOperation({ summary: 'The draft as a file: {flowgate_export: 1, function: {name, description, inputs, flow}}' })
  @ZodResponse({ status: 200, type: FunctionExportFileDto })
  async export(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('functionId', functionIdParam) functionId: string) {
    const { name, description, inputs, flow } = await this.functions.get(principal.accountId, projectId, functionId);
    return { flowgate_export: FUNCTION_EXPORT_FORMAT, function: { name, description, inputs, flow } } as const;
  }

  @Put(':functionId')
  @ZodResponse({ status: 200, type: FunctionWithDiagnosticsDto })
  save(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('functionId', functionIdParam) functionId: string,
    @Body() body: SaveFunctionDto,
  ) {
    return this.functions.save(principal.accountId, projectId, functionId, body);
  }

  @Delete(':functionId')
  @ApiOperation({ summary: 'Deletes the function (409 function_in_use naming the live endpoints, functions and schedules that call it)' })
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async delete(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('functionId', functionIdParam) functionId: string) {
    await this.functions.delete(principal.accountId, projectId, functionId);
    return done('Function deleted');
  }
}
