import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { done, MessageResponseDto } from '../common/dto/message.dto';
import { projectIdParam } from '../common/uuid-param.pipe';
import { CreateProjectDto, ProjectDto, ProjectListDto, UpdateProjectDto } from './dto/project.dto';
import { ProjectsService } from './projects.service';

@DashboardApi('projects')
@Controller('v1/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @ZodResponse({ status: 200, type: ProjectListDto })
  async list(@CurrentPrincipal() principal: Principal) {
    return { items: await this.projects.list(principal.accountId) };
  }

  @Post()
  @ZodResponse({ status: 201, type: ProjectDto })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateProjectDto) {
    return this.projects.create(principal.accountId, body);
  }

  @Get(':projectId')
  @ZodResponse({ status: 200, type: ProjectDto })
  get(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string) {
    return this.projects.get(principal.accountId, projectId);
  }

  @Patch(':projectId')
  @ZodResponse({ status: 200, type: ProjectDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Body() body: UpdateProjectDto,
  ) {
    return this.projects.update(principal.accountId, projectId, body);
  }

  @Delete(':projectId')
  @ZodResponse({ status: 200, type: MessageResponseDto })
  async delete(@CurrentPrincipal() principal: Principal, @Param('projectId', projectIdParam) projectId: string) {
    await this.projects.delete(principal.accountId, projectId);
    return done('Project deleted');
  }
}
