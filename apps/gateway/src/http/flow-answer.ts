import { safeMessage } from '@flowgate/contracts';
import type { FlowResult } from '@flowgate/flow-engine';
import { sendError, sendErrorWithStatus } from './errors';
import { sendJson, type GatewayResponse } from './gateway-response';
import { answerStream } from './stream-answer';

const CACHE_MISS = { 'x-cache': 'MISS' } as const;

/**
 * A flow's result as the answer: its Respond body, Stream Text's stream, or its error with the block that failed. A
 * Respond body is what the flow's author chose to send: unmasked. An error message says what
 * went wrong and may quote a value (a URL, an upstream answer): the project's secret values are
 * masked in it (`res.masker`, null when the project has none), then it is cut, for the caller
 * and the log.
 */
export function answerFlow(res: GatewayResponse, result: FlowResult): void {
  if (result.type === 'response') {
    const json = result.body === undefined ? undefined : JSON.stringify(result.body);
    const body = json === undefined ? '{}' : json;
    if (res.cacheWrite === null) return sendJson(res, result.status, body);
    res.cacheWrite(result.status, body);
    sendJson(res, result.status, body, CACHE_MISS);
  } else if (result.type === 'stream') {
    // Never cached: a stream is the model's answer of the moment.
    void answerStream(res, result);
  } else if (result.code === 'unavailable') {
    // The run was refused memory (or cancelled): the caller may retry shortly.
    sendError(res, 'unavailable', result.message, { 'retry-after': '1' });
    res.errorNodeId = result.node_id;
  } else {
    sendErrorWithStatus(res, result.status, result.code, safeMessage(res.masker, result.message), result.node_id);
  }
}
