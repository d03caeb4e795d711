import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { endSocketWithError } from './raw-answer';

/**
 * node:http hands a CONNECT to the server's 'connect' event and, with no listener, closes the
 * socket without a word. The gateway is not a proxy: say so with a 405 like any other method.
 */
export function refuseConnect(req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  endSocketWithError(
    socket,
    405,
    'method_not_allowed',
    'CONNECT is not supported: the gateway serves API endpoints and is not a proxy',
    'allow: GET, POST, PUT, PATCH, DELETE, OPTIONS\r\n',
  );
}
