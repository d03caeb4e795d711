import { HeapAdmission, type ProjectMemory } from './heap-admission';
import { setTimeout as sleep } from 'node:timers/promises';

const MiB = 1024 * 1024;

/** Admission on a heap of 1,000 MiB whose use the test sets. */
function heapOf(usedMiB: { value: number }): HeapAdmission {
  return new HeapAdmission({ highPercent: 70, limitBytes: 1000 * MiB, usedBytes: () => usedMiB.value * MiB });
}

/** The project's account with `runs` runs going. */
function running(admission: HeapAdmission, projectId: string, runs: number): ProjectMemory {
  const memory = admission.account(projectId);
  for (let run = 0; run < runs; run++) memory.started();
  return memory;
}

/** Lets the next reading of the heap happen (it is read at most every 10 ms). */
const nextReading = () => sleep(15);

describe('HeapAdmission', () => {
  it('admits every run and every value while the heap is below the high mark', () => {
    const admission = heapOf({ value: 500 });
    const a = running(admission, 'a', 2);
    expect(a.add(400 * MiB)).toBe(true);
    expect(admission.admits(a)).toBe(true);
    expect(admission.admits(admission.account('b'))).toBe(true);
  });

  it('above the high mark refuses the projects holding the most, new runs and more memory, and serves the others', async () => {
    const used = { value: 100 };
    const admission = heapOf(used);
    const noisy = running(admission, 'noisy', 2);
    const small = running(admission, 'small', 2);
    noisy.add(300 * MiB);
    small.add(10 * MiB);
    used.value = 750;
    await nextReading();
    expect(admission.admits(noisy)).toBe(false);
    expect(noisy.add(MiB)).toBe(false);
    expect(admission.admits(small)).toBe(true);
    expect(small.add(MiB)).toBe(true);
    expect(admission.admits(admission.account('idle'))).toBe(true);
    // Memory given back is always taken.
    expect(noisy.add(-300 * MiB)).toBe(true);
    expect(admission.admits(noisy)).toBe(true);
  });

  it("never refuses a project's one run: it is bounded by FLOW_MAX_RUN_BYTES, and the heap may be garbage", async () => {
    const used = { value: 900 };
    const admission = heapOf(used);
    const alone = admission.account('alone');
    expect(admission.admits(alone)).toBe(true);
    alone.started();
    expect(alone.add(30 * MiB)).toBe(true);
    expect(admission.admits(alone)).toBe(false);
  });

  it('in danger refuses every project that holds memory, still admitting those that hold none', async () => {
    const used = { value: 100 };
    const admission = heapOf(used);
    running(admission, 'noisy', 2).add(300 * MiB);
    const small = running(admission, 'small', 1);
    small.add(10 * MiB);
    used.value = 900;
    await nextReading();
    expect(admission.admits(small)).toBe(false);
    expect(admission.admits(admission.account('idle'))).toBe(true);
  });
});
