interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export interface CoalescerOptions<T> {
  /** Flushes running at once; what arrives meanwhile waits and goes out together in the next one. */
  maxInFlight: number;
  /** Upper bound of one flush, in the unit of `weight` (a lone heavier item still goes alone). */
  maxWeight?: number;
  weight?: (item: T) => number;
  /**
   * Least time from the start of one flush to the start of the next; what arrives meanwhile
   * waits and goes out together (offset commits: one per interval, however many batches).
   * `hurry()` lifts it.
   */
  minIntervalMs?: number;
}

/**
 * Group commit: items submitted while a flush is running are handed to the next flush
 * together, so a busy pipeline pays for one transaction (or one offset commit) per round
 * instead of one per item, and an idle one adds no delay at all. A flush that throws
 * rejects every item in it.
 */
export class Coalescer<T, R> {
  private readonly waiting: Array<Waiting<T, R>> = [];
  private inFlight = 0;
  private lastFlushAt = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  private hurried = false;

  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    private readonly options: CoalescerOptions<T>,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  /** From now on, flushes start as soon as a flush slot is free (shutdown: commit what is durable now). */
  hurry(): void {
    this.hurried = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const wait = this.hurried ? 0 : this.lastFlushAt + (this.options.minIntervalMs ?? 0) - Date.now();
      if (wait > 0) {
        this.timer ??= setTimeout(() => {
          this.timer = null;
          this.pump();
        }, wait);
        return;
      }
      this.lastFlushAt = Date.now();
      const group = this.takeGroup();
      this.inFlight += 1;
      void this.run(group).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private takeGroup(): Array<Waiting<T, R>> {
    const { maxWeight = Infinity, weight = () => 1 } = this.options;
    let total = weight(this.waiting[0].item);
    let count = 1;
    while (count < this.waiting.length && total + weight(this.waiting[count].item) <= maxWeight) {
      total += weight(this.waiting[count].item);
      count += 1;
    }
    return this.waiting.splice(0, count);
  }

  private async run(group: Array<Waiting<T, R>>): Promise<void> {
    try {
      const results = await this.flush(group.map((waiting) => waiting.item));
      group.forEach((waiting, index) => waiting.resolve(results[index]));
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
    }
  }
}
