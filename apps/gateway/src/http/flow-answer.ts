import type { FlowResult } from '@flowgate/flow-engine';
import { sendError, sendErrorWithStatus } from './errors';
import { sendJson, type GatewayResponse } from './gateway-response';

/**
 * A flow's result as the answer: its Respond body, or its error with the block that failed. A
 * Respond body is what the flow's author chose to send: unmasked. An error message says what
 * went wrong and may quote a value (a URL, an upstream answer): the project's secret values are
 * masked in it (`res.masker`, null when the project has none), for the caller and the log.
 */
export function answerFlow(res: GatewayResponse, result: FlowResult): void {
  if (result.type === 'response') {
    const json = result.body === undefined ? undefined : JSON.stringify(result.body);
    sendJson(res, result.status, json === undefined ? '{}' : json);
  } else if (result.code === 'unavailable') {
    // The run was refused memory (or cancelled): the caller may retry shortly.
    sendError(res, 'unavailable', result.message, { 'retry-after': '1' });
    res.errorNodeId = result.node_id;
  } else {
    sendErrorWithStatus(res, result.status, result.code, res.masker === null ? result.message : res.masker.text(result.message), result.node_id);
  }
}
