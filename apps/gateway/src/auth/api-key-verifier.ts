import { apiKeyRecordKey, rateLimitKey, type KeyPermission } from '@flowgate/contracts';
import { createHash } from 'node:crypto';

/** Runs the key script (key-check.script.ts); rejects when Redis cannot answer. */
export interface KeyScriptRunner {
  evalScript(keys: readonly string[], args: readonly string[]): Promise<unknown>;
}

export type KeyCheck =
  | { outcome: 'invalid' }
  | {
      outcome: 'accepted' | 'rate_limited' | 'forbidden';
      keyId: string;
      permission: KeyPermission;
      limit: number;
      remaining: number;
      /** Milliseconds until the window frees a slot. */
      resetMs: number;
    };

type KeyCheckReply = [number, string?, string?, number?, number?, number?];

const OUTCOMES = ['invalid', 'accepted', 'rate_limited', 'forbidden'] as const;

/**
 * Runs the key script: on a single Redis through the hand-written pipelined connection
 * (key-check-connection.ts), on a Redis Cluster through ioredis (cluster-key-checks.ts).
 */
export class ApiKeyVerifier {
  constructor(private readonly connection: KeyScriptRunner) {}

  /** Rejects when Redis cannot answer: the caller must refuse the request (never accept unverified). */
  async check(apiKey: string, projectId: string, level: 'user' | 'admin'): Promise<KeyCheck> {
    const hash = keyHash(apiKey);
    const reply = (await this.connection.evalScript([apiKeyRecordKey(projectId, hash), rateLimitKey(projectId, hash)], [projectId, level])) as KeyCheckReply;
    const outcome = OUTCOMES[reply[0]] ?? 'invalid';
    if (outcome === 'invalid') return { outcome };
    return {
      outcome,
      keyId: String(reply[1]),
      permission: reply[2] === 'admin' ? 'admin' : 'user',
      limit: Number(reply[3]),
      remaining: Number(reply[4]),
      resetMs: Number(reply[5]),
    };
  }
}

/** SHA-256 of recently seen keys (a pure function of the key, so memoising it decides nothing). */
const hashes = new Map<string, string>();
const MAX_HASHES = 10_000;

function keyHash(apiKey: string): string {
  let hash = hashes.get(apiKey);
  if (hash === undefined) {
    hash = createHash('sha256').update(apiKey).digest('hex');
    if (hashes.size >= MAX_HASHES) hashes.clear();
    hashes.set(apiKey, hash);
  }
  return hash;
}
