/** Timing helpers for the benchmarks: interleaved rounds, medians and a plain-text table. */

/** One thing to time; its return value is kept so the work cannot be optimised away. */
export interface BenchTask {
  readonly name: string;
  readonly run: () => unknown;
}

/** Milliseconds per call of one task. */
export interface TaskStats {
  readonly name: string;
  readonly rounds: number;
  readonly median: number;
  readonly p90: number;
  readonly min: number;
  /**
   * Median process CPU time per call (all threads, so GC and JIT helpers count). On a busy
   * machine it moves less than wall time, which also counts waiting for a CPU.
   */
  readonly cpuMedian: number;
}

/** How long to measure. */
export interface MeasureOptions {
  /** Rounds run first and thrown away (JIT warm-up). */
  readonly warmupRounds: number;
  readonly minRounds: number;
  readonly maxRounds: number;
  /** Stop starting new rounds after this long (once `minRounds` are done). */
  readonly budgetMs: number;
}

let sink: unknown;

/** The last value a task returned (read it so the JIT must compute it). */
export function benchSink(): unknown {
  return sink;
}

/**
 * Runs every task once per round, in an order that rotates each round, so that the tasks share
 * the machine's noise (other processes, GC, frequency changes) instead of one of them getting the
 * quiet minute. Returns each task's median and p90.
 */
export function measureInterleaved(tasks: readonly BenchTask[], options: MeasureOptions): TaskStats[] {
  const samples = tasks.map(() => [] as number[]);
  const cpuSamples = tasks.map(() => [] as number[]);
  for (let round = 0; round < options.warmupRounds; round++) for (const task of tasks) sink = task.run();
  const started = performance.now();
  let rounds = 0;
  while (rounds < options.maxRounds && (rounds < options.minRounds || performance.now() - started < options.budgetMs)) {
    for (let k = 0; k < tasks.length; k++) {
      const t = (k + rounds) % tasks.length;
      const task = tasks[t]!;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      sink = task.run();
      samples[t]!.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpuSamples[t]!.push((c.user + c.system) / 1000);
    }
    rounds++;
  }
  return tasks.map((task, t) => {
    const sorted = samples[t]!.sort((a, b) => a - b);
    const cpu = cpuSamples[t]!.sort((a, b) => a - b);
    return { name: task.name, rounds, median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), min: sorted[0] ?? Number.NaN, cpuMedian: quantile(cpu, 0.5) };
  });
}

/** The q-quantile of sorted numbers (linear interpolation between closest ranks). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** A fixed-width text table: first column left-aligned, the others right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** `12.34` for a millisecond figure. */
export function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}
