/** The latency figures the benchmarks print: p50, p95 and p99 (nearest rank) of `samples`, and their count. */
export function latencyStats(samples: number[]): { p50: number; p95: number; p99: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const percentile = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50: percentile(50), p95: percentile(95), p99: percentile(99), n: samples.length };
}
