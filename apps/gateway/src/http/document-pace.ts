import { performance } from 'node:perf_hooks';

/** Bytes of one project's API description a gateway writes per second, at most: 8 fetches of a 4 MB document. */
export const DOCUMENT_BYTES_PER_SECOND = 32 * 1024 * 1024;
/** A fetch that would wait longer for its turn is refused instead (429 `rate_limited`, `Retry-After: 1`). */
export const MAX_DOCUMENT_WAIT_MS = 1000;

/**
 * Paces the full answers of each project's `/_openapi.json` (http/openapi-route.ts): each one
 * books the project's share of `DOCUMENT_BYTES_PER_SECOND` for as long as its bytes take at
 * that rate, and a fetch finding the project's time booked waits for its turn — never longer
 * than `MAX_DOCUMENT_WAIT_MS`. A document changes only when the project is published, and a
 * client that revalidates (`If-None-Match`, a 304) or asks `HEAD` books nothing; what this
 * bounds is a client pulling megabytes for a request of a few bytes, as fast as it is answered
 * (the drill's `openapi` lane: 1.5 GB a second, which on a small machine the other projects pay
 * for in the kernel's copies and the puller's CPU).
 */
export class DocumentPace {
  /** When each project's booked time ends (entries go with the project: `forget`). */
  private readonly bookedUntil = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** How many ms a full answer of `bytes` waits before it is written; null: past the longest wait (refuse it). */
  book(projectId: string, bytes: number): number | null {
    const now = this.now();
    const at = Math.max(now, this.bookedUntil.get(projectId) ?? now);
    if (at - now > MAX_DOCUMENT_WAIT_MS) return null;
    this.bookedUntil.set(projectId, at + (bytes / DOCUMENT_BYTES_PER_SECOND) * 1000);
    return at - now;
  }

  forget(projectId: string): void {
    this.bookedUntil.delete(projectId);
  }
}
