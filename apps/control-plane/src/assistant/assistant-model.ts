import type Anthropic from '@anthropic-ai/sdk';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';

/** The SDK, loaded when the operator set a key: a control plane without the assistant never loads it (nor spends its start-up on it). */
const sdk = (): typeof Anthropic => (require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk')).Anthropic;

/** Longest draft answer: a flow of a few dozen blocks is well under it. */
const MAX_TOKENS = 16_000;

export type ModelRequest = Pick<Anthropic.Messages.MessageCreateParamsNonStreaming, 'system' | 'messages' | 'tools' | 'tool_choice'>;

/**
 * Anthropic's Messages API with the operator's key (FLOWGATE_ASSISTANT_API_KEY), behind a seam
 * the service is tested through. Every failure of the model or the SDK becomes 502
 * `assistant_failed` with the provider's reason; none is a 500.
 */
@Injectable()
export class AssistantModel {
  private readonly client: Anthropic | null;
  private readonly model: string;

  constructor(@Inject(CONFIG) config: ControlPlaneConfig) {
    const { apiKey, baseUrl, model } = config.assistant;
    this.model = model;
    // One retry rides out a blip (429/5xx/connection, Retry-After honoured); a draft takes a while.
    this.client = apiKey === undefined ? null : new (sdk())({ apiKey, baseURL: baseUrl ?? null, maxRetries: 1, timeout: 120_000 });
  }

  get available(): boolean {
    return this.client !== null;
  }

  async ask(request: ModelRequest, signal: AbortSignal): Promise<Anthropic.Messages.Message> {
    if (this.client === null) throw assistantUnavailable();
    try {
      return await this.client.messages.create({ model: this.model, max_tokens: MAX_TOKENS, ...request }, { signal });
    } catch (error) {
      throw modelFailure(error);
    }
  }
}

export const assistantUnavailable = (): AppError =>
  new AppError('assistant_unavailable', 'The drafting assistant is not set up on this installation: the operator sets FLOWGATE_ASSISTANT_API_KEY (an Anthropic API key) for the control plane');

/** Only reached once a client exists: the SDK is loaded. */
function modelFailure(error: unknown): unknown {
  const Anthropic = sdk();
  if (error instanceof Anthropic.APIUserAbortError) return error;
  if (error instanceof Anthropic.APIConnectionTimeoutError) return new AppError('assistant_failed', 'The assistant’s model did not answer in time; try again');
  if (error instanceof Anthropic.APIConnectionError) return new AppError('assistant_failed', `The assistant could not reach its model (${error.message})`);
  if (error instanceof Anthropic.APIError) {
    const reason = error.status === 401 ? 'the operator’s API key was refused' : (error.apiMessage ?? error.message);
    return new AppError('assistant_failed', `The assistant’s model refused the request: ${reason}${error.status ? ` (HTTP ${error.status})` : ''}`);
  }
  return error;
}
