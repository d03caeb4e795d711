import type { Request, Response } from 'express';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiProduces } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { AppError } from '../common/app-error';
import { AcceptsBody } from '../common/body-media-type';
import { projectIdParam, rowIdParam, tableIdParam } from '../common/uuid-param.pipe';
import { ImportResultDto, ListRowsQueryDto, RowDto, RowPageDto, RowValuesDto } from './dto/row.dto';
import { RowsService } from './rows.service';

@DashboardApi('data-tables')
@Controller('v1/projects/:projectId/tables/:tableId')
export class RowsController {
  constructor(private readonly rows: RowsService) {}

  @Get('rows')
  @ApiOperation({ summary: 'A page of rows: filter (JSON list of {column, operator, value}), sort (name or -name), limit (≤ 1000), cursor' })
  @ZodResponse({ status: 200, type: RowPageDto })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('tableId', tableIdParam) tableId: string,
    @Query() query: ListRowsQueryDto,
  ) {
    const page = await this.rows.list(principal.accountId, projectId, tableId, query);
    return { items: page.rows, next_cursor: page.next_cursor };
  }

  @Post('rows')
  @ApiOperation({ summary: 'Add a row; 400 naming the column whose value does not fit, 409 unique_violation, 507 data_limit_reached' })
  @ZodResponse({ status: 201, type: RowDto })
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('tableId', tableIdParam) tableId: string,
    @Body() body: RowValuesDto,
  ) {
    return this.rows.create(principal.accountId, projectId, tableId, body.values);
  }

  @Get('rows/:rowId')
  @ZodResponse({ status: 200, type: RowDto })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('tableId', tableIdParam) tableId: string,
    @Param('rowId', rowIdParam) rowId: string,
  ) {
    return this.rows.get(principal.accountId, projectId, tableId, rowId);
  }

  @Patch('rows/:rowId')
  @ApiOperation({ summary: 'Change some values of a row (columns not named keep theirs)' })
  @ZodResponse({ status: 200, type: RowDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('tableId', tableIdParam) tableId: string,
    @Param('rowId', rowIdParam) rowId: string,
    @Body() body: RowValuesDto,
  ) {
    return this.rows.update(principal.accountId, projectId, tableId, rowId, body.values);
  }

  @Delete('rows/:rowId')
  @HttpCode(204)
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('tableId', tableIdParam) tableId: string,
    @Param('rowId', rowIdParam) rowId: string,
  ) {
    await this.rows.delete(principal.accountId, projectId, tableId, rowId);
  }

  @Post('import')
  @AcceptsBody('text/csv')
  @ApiConsumes('text/csv')
  @ApiOperation({ summary: 'Add rows from CSV (header row = column names), all or none; the first bad row is named by its line' })
  @ZodResponse({ status: 201, type: ImportResultDto })
  import(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('tableId', tableIdParam) tableId: string,
    @Req() request: Request,
  ) {
    if (!/^text\/csv\b/i.test(request.headers['content-type'] ?? ''))
      throw new AppError('unsupported_media_type', 'Send the rows as text/csv (a header row of column names, then one row per line)');
    return this.rows.import(principal.accountId, projectId, tableId, request);
  }

  @Get('export')
  @ApiProduces('text/csv')
  @ApiOperation({ summary: 'Every row as CSV: id, created_at, updated_at, then the columns' })
  async export(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Param('tableId', tableIdParam) tableId: string,
    @Res() response: Response,
  ) {
    await this.rows.exportTo(principal.accountId, projectId, tableId, (name) => {
      response.status(200).type('text/csv; charset=utf-8').attachment(`${name}.csv`);
      return response;
    });
  }
}
