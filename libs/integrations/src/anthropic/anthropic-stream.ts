import type Anthropic from '@anthropic-ai/sdk';
import { IntegrationError, type TextStream, type TextStreamEvent, type TextUsage } from '@flowgate/flow-engine';
import { PROVIDER, toIntegrationError } from './anthropic-errors';

/** The SDK's stream of a `messages.create({ stream: true })`: its events, and the controller that aborts the call. */
export interface MessageEvents extends AsyncIterable<Anthropic.Messages.RawMessageStreamEvent> {
  controller: AbortController;
}

/**
 * Anthropic's streamed message as text events: each `text_delta` as it arrives, then `done`
 * with the usage (input tokens from `message_start`, output tokens from the last
 * `message_delta`) once `message_stop` came. `cancel` aborts the HTTP call; an answer that
 * falls silent for `idleMs` is aborted too (the SDK's timeout covers only the wait for the
 * response headers) and fails, as does one that ends without `message_stop`.
 */
export function anthropicTextStream(events: MessageEvents, idleMs: number): TextStream {
  let cancelled = false;
  return {
    cancel: () => {
      cancelled = true;
      events.controller.abort();
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<TextStreamEvent> {
      let silent = false;
      const timer = setTimeout(() => {
        silent = true;
        events.controller.abort();
      }, idleMs);
      const usage: TextUsage = { input_tokens: 0, output_tokens: 0 };
      let stopped = false;
      try {
        for await (const event of events) {
          timer.refresh();
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield { type: 'text', text: event.delta.text };
          else if (event.type === 'message_start') {
            usage.input_tokens = event.message.usage.input_tokens;
            usage.output_tokens = event.message.usage.output_tokens;
          } else if (event.type === 'message_delta') {
            usage.output_tokens = event.usage.output_tokens;
            if (typeof event.usage.input_tokens === 'number') usage.input_tokens = event.usage.input_tokens;
          } else if (event.type === 'message_stop') {
            stopped = true;
            yield { type: 'done', usage: { ...usage } };
          }
        }
      } catch (error) {
        if (!silent && !cancelled) throw toIntegrationError(error);
      } finally {
        clearTimeout(timer);
      }
      if (silent) throw new IntegrationError(PROVIDER, `Anthropic sent nothing for ${idleMs / 1000} s; the answer was stopped`);
      if (!stopped && !cancelled) throw new IntegrationError(PROVIDER, 'the answer ended before it was complete');
    },
  };
}
