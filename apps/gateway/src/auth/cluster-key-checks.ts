import type { Cluster } from 'ioredis';
import type { KeyScriptRunner } from './api-key-verifier';
import { KeyCheckUnavailable } from './key-check-connection';

type ClusterWithKeyCheck = Cluster & { fgKeyCheck(...keysAndArgs: string[]): Promise<unknown> };

/**
 * The key script on a Redis Cluster: ioredis routes each call to the master of the key's slot
 * (the project's hash tag), auto-pipelines the calls of one event-loop turn per node, and
 * falls back from EVALSHA to EVAL when a node (a freshly promoted replica) lacks the script.
 *
 * While a slot has no reachable master, ioredis keeps retrying the slot map; a call still
 * unanswered after `timeoutMs` rejects, so the request is refused (503), never accepted
 * unverified, and never kept waiting longer than that.
 */
export class ClusterKeyChecks implements KeyScriptRunner {
  private readonly cluster: ClusterWithKeyCheck;

  constructor(
    cluster: Cluster,
    lua: string,
    private readonly timeoutMs: number,
  ) {
    cluster.defineCommand('fgKeyCheck', { numberOfKeys: 2, lua });
    this.cluster = cluster as ClusterWithKeyCheck;
  }

  evalScript(keys: readonly string[], args: readonly string[]): Promise<unknown> {
    if (this.cluster.status !== 'ready') return Promise.reject(new KeyCheckUnavailable(`Redis Cluster is ${this.cluster.status}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new KeyCheckUnavailable(`Redis Cluster did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      this.cluster.fgKeyCheck(...keys, ...args).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }
}
