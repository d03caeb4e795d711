import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import type { Principal } from '../auth/auth.service';
import { CurrentPrincipal, DashboardApi } from '../auth/session.guard';
import { projectIdParam } from '../common/uuid-param.pipe';
import { AssistantService } from './assistant.service';
import { AssistantStatusDto, DraftDto, DraftRequestDto } from './dto/draft.dto';
import { RequestSignal } from './request-signal.decorator';

@DashboardApi('assistant')
@Controller('v1')
export class AssistantController {
  constructor(private readonly assistant: AssistantService) {}

  @Get('assistant')
  @ApiOperation({ summary: 'Whether the drafting assistant is set up on this installation, and its rate' })
  @ZodResponse({ status: 200, type: AssistantStatusDto })
  status() {
    return this.assistant.status();
  }

  @Post('projects/:projectId/assistant/drafts')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Draft an endpoint from a description (and an endpoint’s draft): settings and flow validated as Save does; nothing is saved (503 assistant_unavailable without the operator’s key; 429 past ASSISTANT_PER_HOUR; 502 assistant_failed when the model fails)',
  })
  @ZodResponse({ status: 200, type: DraftDto })
  draft(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', projectIdParam) projectId: string,
    @Body() body: DraftRequestDto,
    @RequestSignal() signal: AbortSignal,
  ) {
    return this.assistant.draft(principal.accountId, projectId, body, signal);
  }
}
