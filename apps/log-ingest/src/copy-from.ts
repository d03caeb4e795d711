import type { Connection, PoolClient } from 'pg';

/** What node-postgres' connection offers for COPY … FROM STDIN (not in its type definitions). */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

type Callback = (error: Error | null, rows?: number) => void;

/**
 * `COPY … FROM STDIN` of data already in memory, as a node-postgres query object (the
 * client calls these `handle…` methods as the server answers): the statement goes out, the
 * server asks for the data, the data and CopyDone follow in one write. Resolves with the
 * rows copied (the `COPY n` tag); a failure (a constraint, bad data, the connection lost) rejects
 * with the server's error, its `code` the SQLSTATE, as any other query's.
 *
 * Written here instead of taking pg-copy-streams: the rows are one buffer, no stream needed.
 */
class CopyFrom {
  /** Set by node-postgres (its query timeout wraps it); called once. */
  callback: Callback;
  private error: Error | null = null;
  private rows = 0;

  constructor(
    private readonly text: string,
    private readonly data: Buffer,
    callback: Callback,
  ) {
    this.callback = callback;
  }

  submit(connection: Connection): void {
    (connection as unknown as CopyConnection).query(this.text);
  }

  handleCopyInResponse(connection: Connection): void {
    const copy = connection as unknown as CopyConnection;
    if (this.data.length > 0) copy.sendCopyFromChunk(this.data);
    copy.endCopyFrom();
  }

  handleCommandComplete(message: { text?: string }): void {
    const rows = /^COPY (\d+)$/.exec(message.text ?? '');
    if (rows) this.rows = Number(rows[1]);
  }

  handleError(error: Error): void {
    // The server follows an error with ReadyForQuery; a lost connection or a timeout does not.
    this.error ??= error;
    this.finish();
  }

  handleReadyForQuery(): void {
    this.finish();
  }

  // Messages a COPY FROM does not get; present because the client may call them on any query.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}

  private finish(): void {
    const callback = this.callback;
    this.callback = () => undefined;
    callback(this.error, this.rows);
  }
}

/** Runs `COPY <table> (<columns>) FROM STDIN` with `data` (text format) on `client`; resolves with the rows copied. */
export function copyFrom(client: PoolClient, text: string, data: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    client.query(new CopyFrom(text, data, (error, rows) => (error ? reject(error) : resolve(rows ?? 0))) as never);
  });
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A text value as COPY's text format writes it: a backslash, tab, newline or carriage return as its backslash escape. */
export function copyText(value: string): string {
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIALS, (c) => COPY_ESCAPES[c]) : value;
}
