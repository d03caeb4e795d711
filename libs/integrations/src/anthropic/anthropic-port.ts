import Anthropic from '@anthropic-ai/sdk';
import { IntegrationError, type TextGenerationPort } from '@flowgate/flow-engine';
import { DEFAULT_CLAUDE_MODEL, DEFAULT_MAX_TOKENS } from './claude-models.constant';

const PROVIDER = 'anthropic';

export interface AnthropicPortOptions {
  apiKey: string;
  /** ANTHROPIC_BASE_URL; undefined → the vendor's address. */
  baseURL?: string;
  /** The integration's default model; else DEFAULT_CLAUDE_MODEL. */
  defaultModel?: string | null;
  /**
   * The SDK retries 408/409/429/5xx and connection errors with backoff; one retry is
   * enough to ride out a blip without eating the flow's deadline (which aborts anyway).
   */
  maxRetries?: number;
  /** Per attempt; the flow deadline (the signal) usually ends things first. Default 60 s. */
  timeoutMs?: number;
  defaultMaxTokens?: number;
}

export function createAnthropicPort(options: AnthropicPortOptions): TextGenerationPort {
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? null,
    maxRetries: options.maxRetries ?? 1,
    timeout: options.timeoutMs ?? 60_000,
  });
  const defaultModel = options.defaultModel?.trim() || DEFAULT_CLAUDE_MODEL;
  const defaultMaxTokens = options.defaultMaxTokens ?? DEFAULT_MAX_TOKENS;

  return {
    async generate(request, signal): Promise<string> {
      const { temperature } = request;
      if (temperature !== null && !(temperature >= 0 && temperature <= 1)) {
        throw new IntegrationError(PROVIDER, `temperature must be between 0 and 1 (got ${temperature})`);
      }
      const maxTokens = request.max_tokens ?? defaultMaxTokens;
      if (!Number.isInteger(maxTokens) || maxTokens < 1) {
        throw new IntegrationError(PROVIDER, `max_tokens must be a whole number of at least 1 (got ${maxTokens})`);
      }
      try {
        const message = await client.messages.create(
          {
            model: request.model?.trim() || defaultModel,
            max_tokens: maxTokens,
            ...(temperature === null ? {} : { temperature }),
            messages: [{ role: 'user', content: request.prompt }],
          },
          { signal },
        );
        return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      } catch (error) {
        throw toIntegrationError(error, signal);
      }
    },
  };
}

function toIntegrationError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason ?? error; // the flow deadline: the engine reports it
  if (error instanceof Anthropic.APIConnectionTimeoutError) return new IntegrationError(PROVIDER, 'Anthropic did not answer in time');
  if (error instanceof Anthropic.APIConnectionError) return new IntegrationError(PROVIDER, `could not reach Anthropic (${error.message})`);
  if (error instanceof Anthropic.APIError) {
    const message = error.apiMessage ?? error.message;
    return new IntegrationError(PROVIDER, error.status ? `${message} (HTTP ${error.status})` : message);
  }
  return error;
}
