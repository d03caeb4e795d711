import Anthropic from '@anthropic-ai/sdk';
import { IntegrationError } from '@flowgate/flow-engine';

export const PROVIDER = 'anthropic';

/** What the SDK threw, as the engine reports it; the flow's own interruption (its signal) wins. */
export function toIntegrationError(error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason ?? error; // the flow deadline: the engine reports it
  if (error instanceof Anthropic.APIConnectionTimeoutError) return new IntegrationError(PROVIDER, 'Anthropic did not answer in time', { network: true });
  if (error instanceof Anthropic.APIConnectionError) return new IntegrationError(PROVIDER, `could not reach Anthropic (${error.message})`, { network: true });
  if (error instanceof Anthropic.APIError) {
    const message = error.apiMessage ?? error.message;
    // The status and Retry-After let a block's `retry` decide (5xx, 429).
    const header = error.headers?.get?.('retry-after');
    const retryAfter = header ? Number(header) : NaN;
    return new IntegrationError(PROVIDER, error.status ? `${message} (HTTP ${error.status})` : message, {
      ...(error.status ? { status: error.status } : {}),
      ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    });
  }
  return error;
}
