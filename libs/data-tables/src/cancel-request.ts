import net from 'node:net';
import type { PoolClient } from 'pg';

/** CancelRequest's code (PostgreSQL's protocol, "Canceling Requests in Progress"). */
const CANCEL_REQUEST_CODE = 80877102;

/** What node-postgres keeps of the server's BackendKeyData (not in its types). */
interface BackendKey {
  processID: number | null;
  secretKey: number | null;
}

/**
 * Asks the server to cancel the statement running on `client`'s connection: a CancelRequest on
 * a connection of its own, as psql's Ctrl-C sends it (PgBouncer forwards it to the right
 * server connection, which `pg_cancel_backend` by process id could not find behind it). The
 * server answers nothing and closes; a statement already finished is left alone, so the caller
 * must hold the connection until the statement settled.
 */
export function sendCancelRequest(client: PoolClient): void {
  const { processID, secretKey } = client as unknown as BackendKey;
  if (processID === null || secretKey === null) return;
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeInt32BE(processID, 8);
  packet.writeInt32BE(secretKey, 12);
  const { host, port } = client as unknown as { host: string; port: number };
  const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${port}`) : net.connect(port, host);
  socket.on('error', () => undefined);
  socket.end(packet);
}
