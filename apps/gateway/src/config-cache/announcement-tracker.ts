/**
 * Tells a missed announcement from one still on its way. Every announcement on `fg:changes`
 * carries the `fg:config-seq` value its INCR produced (both in one script, so the numbers have
 * no holes); the gateway polls `fg:config-seq`. Numbers up to the polled value that never came
 * as a message were either lost (a dropped subscriber connection, a message published by an
 * older control plane without `seq`) or are still in flight: a number missing at two polls in
 * a row is taken as lost, and only then does the gateway re-read everything it holds.
 */
export type TrackerVerdict = 'caught_up' | 'waiting' | 'missed';

export class AnnouncementTracker {
  /** Every announcement up to here was received (or covered by a full re-read). */
  private accounted = 0;
  private readonly received = new Set<number>();
  /** The first missing number at the previous check. */
  private missing: number | null = null;

  /** After a full re-read that started when `fg:config-seq` was `seq`. */
  reset(seq: string | null): void {
    this.accounted = seqNumber(seq);
    this.missing = null;
    this.prune();
  }

  receive(seq: unknown): void {
    if (typeof seq === 'number' && Number.isSafeInteger(seq) && seq > this.accounted) this.received.add(seq);
  }

  check(seq: string | null): TrackerVerdict {
    const current = seqNumber(seq);
    if (current === this.accounted) return 'caught_up';
    // A counter that went back or away: Redis lost its state (the epoch tells the same).
    if (current < this.accounted) return 'missed';
    let next = this.accounted + 1;
    while (next <= current && this.received.has(next)) next++;
    this.accounted = next - 1;
    this.prune();
    if (next > current) {
      this.missing = null;
      return 'caught_up';
    }
    if (this.missing === next) return 'missed';
    this.missing = next;
    return 'waiting';
  }

  private prune(): void {
    for (const seq of this.received) if (seq <= this.accounted) this.received.delete(seq);
  }
}

/** A missing counter is 0 (a fresh Redis); an unreadable one -1, which is always behind. */
function seqNumber(seq: string | null): number {
  if (seq === null) return 0;
  const value = Number(seq);
  return Number.isSafeInteger(value) ? value : -1;
}
