import Anthropic from '@anthropic-ai/sdk';
import { IntegrationError, type TextGenerationPort, type TextGenerationRequest, type TextStream } from '@flowgate/flow-engine';
import { PROVIDER, toIntegrationError } from './anthropic-errors';
import { anthropicTextStream } from './anthropic-stream';
import { DEFAULT_CLAUDE_MODEL, DEFAULT_MAX_TOKENS } from './claude-models.constant';

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
  /**
   * Per attempt; the flow deadline (the signal) usually ends things first. A streamed answer
   * that sends nothing for this long is stopped. Default 60 s.
   */
  timeoutMs?: number;
  defaultMaxTokens?: number;
}

export function createAnthropicPort(options: AnthropicPortOptions): TextGenerationPort {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? null,
    maxRetries: options.maxRetries ?? 1,
    timeout: timeoutMs,
  });
  const defaultModel = options.defaultModel?.trim() || DEFAULT_CLAUDE_MODEL;
  const defaultMaxTokens = options.defaultMaxTokens ?? DEFAULT_MAX_TOKENS;

  /** The Messages API request of one prompt; refuses settings the block's schema should have caught. */
  const paramsOf = (request: TextGenerationRequest): Anthropic.Messages.MessageCreateParamsNonStreaming => {
    const { temperature } = request;
    if (temperature !== null && !(temperature >= 0 && temperature <= 1)) {
      throw new IntegrationError(PROVIDER, `temperature must be between 0 and 1 (got ${temperature})`);
    }
    const maxTokens = request.max_tokens ?? defaultMaxTokens;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new IntegrationError(PROVIDER, `max_tokens must be a whole number of at least 1 (got ${maxTokens})`);
    }
    return {
      model: request.model?.trim() || defaultModel,
      max_tokens: maxTokens,
      ...(temperature === null ? {} : { temperature }),
      messages: [{ role: 'user', content: request.prompt }],
    };
  };

  return {
    async generate(request, signal): Promise<string> {
      const params = paramsOf(request);
      try {
        const message = await client.messages.create(params, { signal });
        return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      } catch (error) {
        throw toIntegrationError(error, signal);
      }
    },
    async stream(request, signal): Promise<TextStream> {
      const params = paramsOf(request);
      try {
        return anthropicTextStream(await client.messages.create({ ...params, stream: true }, { signal }), timeoutMs);
      } catch (error) {
        throw toIntegrationError(error, signal);
      }
    },
  };
}
