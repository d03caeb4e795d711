import { CONFIG_SEQ_KEY } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import { waitFor } from './polling';

/**
 * The commands a Redis receives from every client (MONITOR), as `[command, first argument]`:
 * what a gateway reads, counted exactly (use a Redis of the test's own, e.g. PrivateRedis).
 */
export class CommandLog {
  readonly commands: Array<[string, string]> = [];
  private constructor(private readonly connections: Redis[]) {}

  static async start(url: string): Promise<CommandLog> {
    const client = new Redis(url);
    const monitor = await client.monitor();
    const log = new CommandLog([client, monitor]);
    monitor.on('monitor', (_time: string, args: string[]) => log.commands.push([String(args[0]).toLowerCase(), String(args[1] ?? '')]));
    return log;
  }

  /** Position to count from. */
  get mark(): number {
    return this.commands.length;
  }

  /** Keys read by GET since `mark`. */
  readsSince(mark: number): string[] {
    return this.commands.slice(mark).flatMap(([command, key]) => (command === 'get' ? [key] : []));
  }

  /** Waits until the gateway has polled `fg:config-seq` `times` more times after `mark`: whatever a poll would start has started. */
  polledSince(mark: number, times: number): Promise<true> {
    return waitFor(() => this.readsSince(mark).filter((key) => key === CONFIG_SEQ_KEY).length >= times || undefined, `${times} polls of ${CONFIG_SEQ_KEY}`);
  }

  close(): void {
    for (const connection of this.connections) connection.disconnect();
  }
}
