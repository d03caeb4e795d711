import { apiKeyRecordKey, rateLimitKey, type KeyPermission } from '@flowgate/contracts';
import { createHash } from 'node:crypto';

/** Runs the key script (key-check.script.ts); rejects when Redis cannot answer. */
export interface KeyScriptRunner {
  evalScript(keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** Sends what `evalScript` queued now rather than at the end of the loop turn (optional). */
  flush?(): void;
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
/** Checks of one project sent in one script call at most (the script's LPUSH takes one argument per accepted request). */
const MAX_BATCH = 256;

/** The checks of one project waiting for the end of the loop turn. */
interface Batch {
  keys: string[];
  args: string[];
  waiting: Array<{ resolve(check: KeyCheck): void; reject(error: unknown): void }>;
}

/**
 * Runs the key script: on a single Redis through the hand-written pipelined connection
 * (key-check-connection.ts), on a Redis Cluster through ioredis (cluster-key-checks.ts). The
 * checks of one project made during one turn of the event loop go in one script call (one
 * slot: the project's hash tag), decided in order as separate calls would be: under load a
 * key costs Redis a few commands per batch instead of per request.
 */
export class ApiKeyVerifier {
  private batches = new Map<string, Batch>();
  private scheduled = false;
  private readonly sendAll = (): void => {
    this.scheduled = false;
    const batches = this.batches;
    this.batches = new Map();
    for (const batch of batches.values()) this.send(batch);
    this.connection.flush?.();
  };

  constructor(private readonly connection: KeyScriptRunner) {}

  /** Rejects when Redis cannot answer: the caller must refuse the request (never accept unverified). */
  check(apiKey: string, projectId: string, level: 'user' | 'admin'): Promise<KeyCheck> {
    return new Promise((resolve, reject) => {
      let batch = this.batches.get(projectId);
      if (batch === undefined) this.batches.set(projectId, (batch = { keys: [], args: [projectId], waiting: [] }));
      const hash = keyHash(apiKey);
      batch.keys.push(apiKeyRecordKey(projectId, hash), rateLimitKey(projectId, hash));
      batch.args.push(level);
      batch.waiting.push({ resolve, reject });
      if (batch.waiting.length >= MAX_BATCH) {
        this.batches.delete(projectId);
        this.send(batch);
      } else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.sendAll);
      }
    });
  }

  private send({ keys, args, waiting }: Batch): void {
    this.connection.evalScript(keys, args).then(
      (replies) => {
        for (let i = 0; i < waiting.length; i++) waiting[i].resolve(checkOf((replies as KeyCheckReply[])[i]));
      },
      (error: unknown) => {
        for (const call of waiting) call.reject(error);
      },
    );
  }
}

function checkOf(reply: KeyCheckReply | undefined): KeyCheck {
  const outcome = (reply && OUTCOMES[reply[0]]) ?? 'invalid';
  if (outcome === 'invalid' || reply === undefined) return { outcome: 'invalid' };
  return {
    outcome,
    keyId: String(reply[1]),
    permission: reply[2] === 'admin' ? 'admin' : 'user',
    limit: Number(reply[3]),
    remaining: Number(reply[4]),
    resetMs: Number(reply[5]),
  };
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
