/**
 * Tiny benchmark helpers. Every benchmark measures Printwire and a named baseline in the same
 * process and prints the ratio, so results compare like with like on whatever machine runs them.
 */
import { performance } from 'node:perf_hooks';

export interface Throughput {
  opsPerSecond: number;
  iterations: number;
}

/** Runs `fn` repeatedly for about `seconds` (after a short warm-up) and returns ops per second. */
export async function throughput(
  fn: () => unknown | Promise<unknown>,
  { seconds = 2, warmup = 0.3 }: { seconds?: number; warmup?: number } = {},
): Promise<Throughput> {
  const run = async (limitMs: number): Promise<Throughput> => {
    let iterations = 0;
    const start = performance.now();
    let now = start;
    while (now - start < limitMs) {
      for (let i = 0; i < 10; i++) {
        const r = fn();
        if (r instanceof Promise) await r;
      }
      iterations += 10;
      now = performance.now();
    }
    return { opsPerSecond: (iterations * 1000) / (now - start), iterations };
  };
  await run(warmup * 1000);
  return run(seconds * 1000);
}

/** Times each call of `fn` and returns the per-call latencies in milliseconds. */
export async function latencies(
  fn: () => unknown | Promise<unknown>,
  count: number,
  warmup = Math.min(50, count),
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function fmt(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  return n >= 100 ? n.toFixed(0) : n.toFixed(digits);
}

/**
 * Prints one result line: `name: 1234 ops/s vs baseline NAME 456 ops/s = 2.71x (target >= 2x)`.
 * `higherIsBetter` decides the ratio's direction so that a ratio above 1 always means Printwire
 * is better.
 */
export function report(result: {
  name: string;
  value: number;
  unit: string;
  baseline: string;
  baselineValue: number;
  higherIsBetter: boolean;
  target?: number;
}): void {
  const ratio = result.higherIsBetter
    ? result.value / result.baselineValue
    : result.baselineValue / result.value;
  const target =
    result.target === undefined
      ? ''
      : ` (target >= ${result.target}x: ${ratio >= result.target ? 'met' : 'NOT met'})`;
  console.log(
    `${result.name}: ${fmt(result.value)} ${result.unit} vs baseline ${result.baseline} ${fmt(result.baselineValue)} ${result.unit} = ${fmt(ratio)}x${target}`,
  );
}
