import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { projectIdParam, tableIdParam } from '../common/uuid-param.pipe';
import { CreateTableDto, DeleteTableQueryDto, TableDto, TableListDto, UpdateTableDto } from './dto/table.dto';
import { TablesService } from './tables.service';

@DashboardApi('data-tables')
@Controller('v1/projects/:projectId/tables')
export class TablesController {
  constructor(private readonly tables: TablesService) {}

  @Get()
  @ZodResponse({ status: 200, type: TableListDto })
  async list(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string) {
    return { items: await this.tables.list(principal.accountId, projectId) };
  }

  @Post()
  @ApiOperation({ summary: 'Create a table; 507 data_limit_reached past DATA_MAX_TABLES_PER_PROJECT' })
  @ZodResponse({ status: 201, type: TableDto })
  create(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Body() body: CreateTableDto) {
    return this.tables.create({ projectId, accountId: principal.accountId }, body);
  }

  @Get(':tableId')
  @ZodResponse({ status: 200, type: TableDto })
  get(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string, @Param('tableId', tableIdParam) tableId: string) {
    return this.tables.get(principal.accountId, projectId, tableId);
  }

  @Patch(':tableId')
  @ApiOperation({
    summary:
      'Rename the table or replace its column list (renames by `renamed_from`); 409 conversion_failed naming a row, column_in_use / table_in_use while live endpoints use what would change',
  })
  @ZodResponse({ status: 200, type: TableDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('tableId', tableIdParam) tableId: string,
    @Body() body: UpdateTableDto,
  ) {
    return this.tables.update({ projectId, accountId: principal.accountId }, tableId, body);
  }

  @Delete(':tableId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete the table and its rows; 409 table_in_use naming the live endpoints that use it, unless force=true' })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('tableId', tableIdParam) tableId: string,
    @Query() query: DeleteTableQueryDto,
  ) {
    await this.tables.delete({ projectId, accountId: principal.accountId }, tableId, query.force === 'true');
  }
}
