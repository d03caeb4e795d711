import type Anthropic from '@anthropic-ai/sdk';
import { Inject, Injectable } from '@nestjs/common';
import type { Diagnostic, EndpointSettings, FlowDocument } from '@flowgate/flow-engine';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { flowOf, settingsOf } from '../endpoints/endpoint-content';
import { EndpointsService } from '../endpoints/endpoints.service';
import { FlowCompiler } from '../endpoints/flow-compiler';
import { RateWindows } from '../infrastructure/rate-windows';
import { ProjectsService } from '../projects/projects.service';
import { SecretsService } from '../secrets/secrets.service';
import { AppError } from '../common/app-error';
import { systemPrompt } from './assistant-context';
import { assistantUnavailable, AssistantModel } from './assistant-model';
import { candidateOf, type DraftCandidate, errorCount, repairRequest } from './draft-candidate';
import { DRAFT_TOOL_NAME, draftTool } from './draft-tool';
import type { Draft, DraftRequest } from './dto/draft.dto';

/** Model calls after the first that send Save's findings back for a repair. */
export const REPAIR_ROUNDS = 2;

/**
 * The drafting assistant: a description (and an endpoint's draft) in, a proposed endpoint out,
 * validated as Save validates. It never saves or deploys anything.
 */
@Injectable()
export class AssistantService {
  constructor(
    private readonly model: AssistantModel,
    private readonly projects: ProjectsService,
    private readonly endpoints: EndpointsService,
    private readonly compiler: FlowCompiler,
    private readonly secrets: SecretsService,
    private readonly rates: RateWindows,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  status(): { available: boolean; drafts_per_hour: number } {
    return { available: this.model.available, drafts_per_hour: this.config.assistant.perHour };
  }

  async draft(accountId: string, projectId: string, request: DraftRequest, signal: AbortSignal): Promise<Draft> {
    await this.projects.requireOwned(accountId, projectId);
    if (!this.model.available) throw assistantUnavailable();
    const endpoint = request.endpoint_id ? await this.endpoints.require(projectId, request.endpoint_id) : null;
    const max = this.config.assistant.perHour;
    await this.rates.take({ key: `fg:cp:assistant-drafts:${accountId}`, max, windowMs: 3_600_000, what: `At most ${max} assistant drafts per hour` });

    const [context, { masker }] = await Promise.all([this.endpoints.compileContext(projectId), this.secrets.open(projectId)]);
    // A secret's value typed into a block or the description is replaced by its name before anything leaves.
    const masked = <T>(value: T): T => (masker === null ? value : masker.value(value));
    const baseSettings: Record<string, unknown> = endpoint ? { ...settingsOf(endpoint) } : {};
    const system = systemPrompt({
      tables: context.tables ?? [],
      functions: context.functions ?? [],
      secretNames: context.secret_names ?? [],
      textGeneration: context.text_generation ?? false,
      emailDomains: context.email_verified_domains ?? [],
      endpoint: endpoint ? masked({ settings: baseSettings, flow: flowOf(endpoint) }) : null,
    });
    const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: masked(request.prompt) }];
    const usage = { input_tokens: 0, output_tokens: 0 };
    let best: (DraftCandidate & { diagnostics: Diagnostic[] }) | null = null;

    for (let round = 0; round <= REPAIR_ROUNDS; round++) {
      const answer = await this.ask({ system, messages, tools: [draftTool()], tool_choice: { type: 'tool', name: DRAFT_TOOL_NAME } }, signal);
      usage.input_tokens += answer.usage.input_tokens;
      usage.output_tokens += answer.usage.output_tokens;
      const call = answer.content.find((block): block is Anthropic.Messages.ToolUseBlock => block.type === 'tool_use' && block.name === DRAFT_TOOL_NAME);
      if (!call) break;
      const candidate = candidateOf(call.input, baseSettings);
      const diagnostics = await this.endpoints.maskSecrets(projectId, this.compiler.validate(candidate.flow as FlowDocument, candidate.settings as EndpointSettings, context));
      if (best === null || errorCount(diagnostics) <= errorCount(best.diagnostics)) best = { ...candidate, diagnostics };
      if (errorCount(diagnostics) === 0 || round === REPAIR_ROUNDS) break;
      messages.push({ role: 'assistant', content: answer.content });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, is_error: true, content: repairRequest(diagnostics) }] });
    }
    if (best === null) throw new AppError('assistant_failed', 'The assistant’s model answered without proposing an endpoint; try describing it again');
    return { flow: best.flow, settings: best.settings, explanation: best.explanation, diagnostics: best.diagnostics, usage };
  }

  private async ask(request: Parameters<AssistantModel['ask']>[0], signal: AbortSignal): Promise<Anthropic.Messages.Message> {
    try {
      return await this.model.ask(request, signal);
    } catch (error) {
      // The caller went away (the dashboard's Cancel): nobody reads the answer, and it is no fault.
      if (signal.aborted) throw new AppError('assistant_failed', 'The draft was cancelled');
      throw error;
    }
  }
}
