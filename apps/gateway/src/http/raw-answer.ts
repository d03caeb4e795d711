import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Answers on a socket node:http has handed over (a parse error, a CONNECT) with the usual
 * JSON error body, then closes it: there is no ServerResponse for these.
 */
export function endSocketWithError(socket: Duplex, status: number, code: string, message: string, extraHeaders = ''): void {
  const body = JSON.stringify({ success: false, code, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n${extraHeaders}` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
