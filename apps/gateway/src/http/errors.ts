import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from '@flowgate/contracts';
import type { Logger } from '@flowgate/platform';
import type { OutgoingHttpHeaders } from 'node:http';
import { sendJson, type GatewayResponse } from './gateway-response';

/** Every gateway error has this body; the status comes from the shared code → status table. */
export function sendError(res: GatewayResponse, code: ErrorCode, message: string, extra?: OutgoingHttpHeaders): void {
  res.errorCode = code;
  res.errorMessage = message;
  sendJson(res, ERROR_STATUS[code], JSON.stringify({ success: false, code, message }), extra);
}

/** A refusal that lists what is wrong where: `details: [{path, message}]` (validation_failed). */
export function sendErrorWithDetails(res: GatewayResponse, code: ErrorCode, message: string, details: readonly ErrorDetail[]): void {
  res.errorCode = code;
  res.errorMessage = message;
  sendJson(res, ERROR_STATUS[code], JSON.stringify({ success: false, code, message, details }));
}

/** Same, for a status/code pair decided elsewhere (a flow's `return_error`, a relayed answer); `nodeId` is the block that answered or failed. */
export function sendErrorWithStatus(res: GatewayResponse, status: number, code: string, message: string, nodeId: string | null = null): void {
  res.errorCode = code;
  res.errorMessage = message;
  res.errorNodeId = nodeId;
  sendJson(res, status, JSON.stringify({ success: false, code, message }));
}

/** A body refused before it is used; one refused before it was read to the end closes the connection (`bodyUnread`: the rest is not read). */
export function refuseBody(
  res: GatewayResponse,
  code: 'invalid_json' | 'payload_too_large' | 'unsupported_media_type' | 'invalid_request',
  message: string,
): void {
  sendError(res, code, message);
}

/** A bug, not the caller's fault: logged with its stack, answered without one. */
export function internalError(res: GatewayResponse, logger: Logger, error: unknown): void {
  logger.error({ err: error, path: res.logPath }, 'request failed');
  if (!res.headersSent) sendError(res, 'internal_error', 'Internal error');
  else res.destroy();
}
