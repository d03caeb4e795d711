import { createHash } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import RedisParser from 'redis-parser';

/** Why a command was not answered; the caller refuses the request (never accepts it unverified). */
export class KeyCheckUnavailable extends Error {}

interface Pending {
  resolve(reply: unknown): void;
  reject(error: Error): void;
  /** `Date.now()` when the call was queued, for the answer deadline. */
  sentAt: number;
  /** The EVALSHA command, sent again as EVAL (script text included) once if Redis lost the script; null for other commands. */
  evalSha: string | null;
}

export interface KeyCheckConnectionOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://…`, as REDIS_URL. */
  url: string;
  /** The script every `evalScript` call runs. */
  lua: string;
  /** A command not answered within this long fails, and the connection is replaced. */
  timeoutMs: number;
  /** `CLIENT SETNAME`, for `CLIENT LIST` on the Redis side. */
  name: string;
  onError?(error: Error): void;
}

const RECONNECT_MAX_MS = 1000;

/**
 * One pipelined Redis connection that runs a single Lua script, for the key check of every
 * keyed request. ioredis builds a command object, a promise chain and a socket write per call
 * (about 30 µs of gateway CPU each, measured); here every call made during one turn of the
 * event loop goes out in one write (flushed by `setImmediate`), and the replies of one read
 * are parsed in one pass (`redis-parser`, the parser ioredis itself uses).
 *
 * Fails fast, like the ioredis client it replaces on this path: while disconnected a call
 * rejects at once (no offline queue, nothing replayed), a call not answered within
 * `timeoutMs` rejects and the connection is replaced, and reconnection backs off to 1 s.
 * A script missing from Redis (`NOSCRIPT`, after a restart or `SCRIPT FLUSH`) is sent again
 * once with EVAL, which also caches it.
 */
export class KeyCheckConnection {
  private socket: net.Socket | null = null;
  private ready = false;
  private closed = false;
  private attempts = 0;
  private readonly queue: Pending[] = [];
  private head = 0;
  private outgoing = '';
  private flushScheduled = false;
  private readonly sha: string;
  private readonly evalPrefix: string;
  private readonly evalShaPrefix: string;
  private readonly parser: RedisParser;
  private readonly watchdog: NodeJS.Timeout;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Writes what was queued now (also run by `setImmediate` at the end of the turn it was queued in). */
  readonly flush = (): void => {
    this.flushScheduled = false;
    if (this.outgoing === '' || this.socket === null) return;
    this.socket.write(this.outgoing);
    this.outgoing = '';
  };

  constructor(private readonly options: KeyCheckConnectionOptions) {
    this.sha = createHash('sha1').update(options.lua).digest('hex');
    this.evalShaPrefix = `${bulk('EVALSHA')}${bulk(this.sha)}`;
    this.evalPrefix = `${bulk('EVAL')}${bulk(options.lua)}`;
    this.parser = new RedisParser({
      returnReply: (reply: unknown) => this.settle(reply, null),
      returnError: (error: Error) => this.settle(undefined, error),
      returnFatalError: (error: Error) => this.fail(error),
    });
    this.watchdog = setInterval(() => this.checkDeadline(), Math.max(50, Math.min(500, options.timeoutMs / 4)));
    this.watchdog.unref();
  }

  /** Resolves once connected and the script is loaded; rejects with the first failure. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => this.open(resolve, reject));
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** `EVALSHA <script> <keys.length> ...keys ...args`; rejects at once while disconnected. */
  evalScript(keys: readonly string[], args: readonly string[]): Promise<unknown> {
    if (!this.ready) return Promise.reject(new KeyCheckUnavailable('Redis connection not ready'));
    let rest = bulk(String(keys.length));
    for (const key of keys) rest += bulk(key);
    for (const arg of args) rest += bulk(arg);
    return this.send(`*${3 + keys.length + args.length}\r\n${this.evalShaPrefix}${rest}`, true);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.watchdog);
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.fail(new KeyCheckUnavailable('connection closed'));
  }

  private send(command: string, isEvalSha = false): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject, sentAt: Date.now(), evalSha: isEvalSha ? command : null });
      this.outgoing += command;
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private open(onReady?: () => void, onFailure?: (error: Error) => void): void {
    const url = new URL(this.options.url);
    const host = url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
    const port = Number(url.port || 6379);
    const socket =
      url.protocol === 'rediss:' ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    socket.setNoDelay(true);
    this.socket = socket;
    this.parser.reset();
    socket.on(url.protocol === 'rediss:' ? 'secureConnect' : 'connect', () => {
      this.handshake(url).then(
        () => {
          this.attempts = 0;
          this.ready = true;
          onReady?.();
        },
        (error: Error) => {
          onFailure?.(error);
          this.fail(error);
        },
      );
    });
    socket.on('data', (chunk: Buffer) => this.parser.execute(chunk));
    socket.on('error', (error) => {
      this.options.onError?.(error);
      if (!this.ready) onFailure?.(error);
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.fail(new KeyCheckUnavailable('Redis connection lost'));
    });
  }

  /** AUTH, SELECT, CLIENT SETNAME and SCRIPT LOAD, pipelined; the script's SHA must match ours. */
  private async handshake(url: URL): Promise<void> {
    const commands: string[][] = [];
    const password = decodeURIComponent(url.password);
    if (password !== '') commands.push(url.username ? ['AUTH', decodeURIComponent(url.username), password] : ['AUTH', password]);
    const db = Number(url.pathname.slice(1) || 0);
    if (db > 0) commands.push(['SELECT', String(db)]);
    commands.push(['CLIENT', 'SETNAME', this.options.name], ['SCRIPT', 'LOAD', this.options.lua]);
    const replies = await Promise.all(commands.map((args) => this.send(`*${args.length}\r\n${args.map(bulk).join('')}`)));
    if (replies[replies.length - 1] !== this.sha) throw new Error('Redis answered SCRIPT LOAD with an unexpected SHA');
  }

  private settle(reply: unknown, error: Error | null): void {
    const pending = this.queue[this.head];
    if (pending === undefined) return;
    this.queue[this.head++] = undefined as unknown as Pending;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (error === null) pending.resolve(reply);
    else if (pending.evalSha !== null && error.message.startsWith('NOSCRIPT')) {
      // Same header, keys and arguments; `EVAL <script>` in place of `EVALSHA <sha>`.
      this.send(pending.evalSha.replace(this.evalShaPrefix, () => this.evalPrefix)).then(pending.resolve, pending.reject);
    } else pending.reject(error);
  }

  /** Drops the connection: every unanswered call rejects, and a new connection follows (unless closed). */
  private fail(error: Error): void {
    this.ready = false;
    const socket = this.socket;
    this.socket = null;
    this.outgoing = '';
    socket?.destroy();
    const pending = this.queue.splice(this.head);
    this.queue.length = 0;
    this.head = 0;
    for (const call of pending) call.reject(error);
    if (!this.closed && this.reconnectTimer === null) {
      this.attempts++;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        if (!this.closed) this.open();
      }, Math.min(this.attempts * 100, RECONNECT_MAX_MS));
      this.reconnectTimer.unref();
    }
  }

  private checkDeadline(): void {
    const oldest = this.queue[this.head];
    if (oldest !== undefined && Date.now() - oldest.sentAt > this.options.timeoutMs) {
      this.fail(new KeyCheckUnavailable(`Redis did not answer within ${this.options.timeoutMs} ms`));
    }
  }
}

/** One RESP bulk string. */
function bulk(value: string): string {
  return `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
}
