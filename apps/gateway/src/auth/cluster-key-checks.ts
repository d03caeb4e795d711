import type { Cluster } from 'ioredis';
import type { KeyScriptRunner } from './api-key-verifier';
import { KeyCheckUnavailable } from './key-check-connection';

/** The script's command name on the cluster client (excluded from its auto-pipelining: gateway-redis.ts). */
export const KEY_CHECK_COMMAND = 'fgKeyCheck';

type ClusterWithKeyCheck = Cluster & { fgKeyCheck(...keysAndArgs: string[]): Promise<unknown> };

interface Pending {
  sentAt: number;
  settled: boolean;
  reject(error: Error): void;
}

/**
 * The key script on a Redis Cluster: ioredis routes each call to the master of the key's slot
 * (the project's hash tag), auto-pipelines the calls of one event-loop turn per node, and
 * falls back from EVALSHA to EVAL when a node (a freshly promoted replica) lacks the script.
 *
 * While a slot has no reachable master, ioredis keeps retrying the slot map; a call still
 * unanswered after `timeoutMs` rejects, so the request is refused (503), never accepted
 * unverified, and never kept waiting longer than that. One watchdog timer checks the oldest
 * calls (answers come back roughly in order) instead of a timer per call.
 */
export class ClusterKeyChecks implements KeyScriptRunner {
  private readonly cluster: ClusterWithKeyCheck;
  private readonly pending: Pending[] = [];
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    cluster: Cluster,
    lua: string,
    private readonly timeoutMs: number,
  ) {
    // No fixed numberOfKeys: a call checks a batch (two keys per check), its count first.
    cluster.defineCommand(KEY_CHECK_COMMAND, { lua });
    this.cluster = cluster as ClusterWithKeyCheck;
    this.watchdog = setInterval(() => this.expire(), Math.max(25, Math.min(50, timeoutMs / 10)));
    this.watchdog.unref();
  }

  evalScript(keys: readonly string[], args: readonly string[]): Promise<unknown> {
    if (this.cluster.status !== 'ready') return Promise.reject(new KeyCheckUnavailable(`Redis Cluster is ${this.cluster.status}`));
    return new Promise((resolve, reject) => {
      const call: Pending = { sentAt: Date.now(), settled: false, reject };
      this.pending.push(call);
      this.cluster.fgKeyCheck(String(keys.length), ...keys, ...args).then(
        (reply) => {
          if (call.settled) return;
          call.settled = true;
          resolve(reply);
        },
        (error: Error) => {
          if (call.settled) return;
          call.settled = true;
          reject(error);
        },
      );
    });
  }

  close(): void {
    clearInterval(this.watchdog);
  }

  private expire(): void {
    const deadline = Date.now() - this.timeoutMs;
    let drop = 0;
    for (const call of this.pending) {
      if (!call.settled && call.sentAt > deadline) break;
      if (!call.settled) {
        call.settled = true;
        call.reject(new KeyCheckUnavailable(`Redis Cluster did not answer within ${this.timeoutMs} ms`));
      }
      drop++;
    }
    if (drop > 0) this.pending.splice(0, drop);
  }
}
