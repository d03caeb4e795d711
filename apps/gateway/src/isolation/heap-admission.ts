import type { MemoryAccount } from '@flowgate/flow-engine';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';

/** The heap is read at most this often (a reading costs ~3 µs). */
const SAMPLE_MS = 10;
/** Above this share of the heap limit every project that holds memory is refused, not only the top ones. */
const DANGER_SHARE = 0.85;

export interface HeapAdmissionOptions {
  /** Share of the heap limit (percent) above which the projects holding the most are refused. */
  highPercent: number;
  /** Bytes of heap in use now; default V8's `used_heap_size`. */
  usedBytes?: () => number;
  /** The heap's limit; default V8's `heap_size_limit` (set by `--max-old-space-size`). */
  limitBytes?: number;
}

/**
 * Admission control by heap use. The values every run keeps are counted per project (the
 * engine's `FlowRun.keep` calls the project's `MemoryAccount`). While the heap is below
 * `highPercent` of its limit, everything is admitted. Above it, a project that holds at least
 * half as much as the project holding the most gets no new run while one of its runs is going
 * (503 `unavailable` with `Retry-After`), and its running flows no more memory while it has
 * several (they stop with the same answer): the projects filling the heap stop adding to it
 * while the others are still served. Above 85 % this holds for every project that holds
 * memory. A project's one run is never refused: it is bounded by FLOW_MAX_RUN_BYTES, and the
 * heap reading counts garbage too, which only the next collection (brought on by allocating)
 * clears. A run gives its memory back when it ends.
 */
export class HeapAdmission {
  private readonly projects = new Map<string, ProjectMemory>();
  private readonly usedBytes: () => number;
  private readonly highBytes: number;
  private readonly dangerBytes: number;
  private used = 0;
  private sampledAt = -Infinity;

  constructor(options: HeapAdmissionOptions) {
    this.usedBytes = options.usedBytes ?? (() => v8.getHeapStatistics().used_heap_size);
    const limit = options.limitBytes ?? v8.getHeapStatistics().heap_size_limit;
    this.highBytes = (limit * options.highPercent) / 100;
    this.dangerBytes = limit * Math.max(DANGER_SHARE, options.highPercent / 100);
  }

  /** The account a project's runs report their kept values to (the same object for every run of the project). */
  account(projectId: string): ProjectMemory {
    let memory = this.projects.get(projectId);
    if (memory === undefined) this.projects.set(projectId, (memory = new ProjectMemory(this)));
    return memory;
  }

  /** Drops the project's account (FlowIsolation.forget); runs in flight keep the object they hold. */
  forget(projectId: string): void {
    this.projects.delete(projectId);
  }

  /** Whether a new run of the project may start now (`ProjectMemory.started` then counts it). */
  admits(memory: ProjectMemory): boolean {
    return memory.running === 0 || this.allows(memory);
  }

  /** @internal Whether the project may hold more now. */
  allows(memory: ProjectMemory): boolean {
    const now = performance.now();
    if (now - this.sampledAt >= SAMPLE_MS) {
      this.used = this.usedBytes();
      this.sampledAt = now;
    }
    if (this.used < this.highBytes || memory.held <= 0) return true;
    if (this.used >= this.dangerBytes) return false;
    let most = 0;
    for (const other of this.projects.values()) if (other.held > most) most = other.held;
    return memory.held < most / 2;
  }
}

/** What the values of one project's running flows hold, as the engine counts them, and how many run. */
export class ProjectMemory implements MemoryAccount {
  held = 0;
  running = 0;

  constructor(private readonly heap: HeapAdmission) {}

  add(bytes: number): boolean {
    if (bytes > 0 && this.running > 1 && !this.heap.allows(this)) return false;
    this.held += bytes;
    return true;
  }

  started(): void {
    this.running++;
  }

  ended(): void {
    this.running--;
  }
}
