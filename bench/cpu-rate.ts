/** Rates per second of this process's CPU time, shared by the engine's benchmarks. */

export interface Rate {
  perCpuSecond: number;
  perWallSecond: number;
}

/**
 * Runs batches of `run` for `ms` milliseconds of this process's CPU time and returns runs per
 * CPU-second: the figure for "one core", unaffected by other processes competing for the
 * machine (wall-clock figures are printed beside it).
 */
export async function measure(run: () => unknown, ms: number, batch = 1000): Promise<Rate> {
  let count = 0;
  const wallStart = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  let cpuMicros = 0;
  while (cpuMicros < ms * 1000) {
    for (let i = 0; i < batch; i++) {
      const result = run();
      if (result instanceof Promise) await result;
    }
    count += batch;
    const used = process.cpuUsage(cpuStart);
    cpuMicros = used.user + used.system;
  }
  const wallSeconds = Number(process.hrtime.bigint() - wallStart) / 1e9;
  return { perCpuSecond: count / (cpuMicros / 1e6), perWallSecond: count / wallSeconds };
}

/** The best of three 1.5 s rounds after a warm-up (V8 optimises during the warm-up). */
export async function best(run: () => unknown, batch = 1000): Promise<Rate> {
  await measure(run, 500, batch);
  const rounds = [await measure(run, 1500, batch), await measure(run, 1500, batch), await measure(run, 1500, batch)];
  return rounds.reduce((top, round) => (round.perCpuSecond > top.perCpuSecond ? round : top));
}
