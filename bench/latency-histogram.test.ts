import { describe, expect, it } from "vitest";
import { bucketLimit, bucketOf, merge, percentile, sparse } from "./latency-histogram.ts";

function histogramOf(latencies: number[]): Uint32Array {
  const counts = merge([]);
  for (const latency of latencies) counts[bucketOf(latency)]!++;
  return counts;
}

describe("the latency histogram of bench:ws-broadcast", () => {
  it("reads a percentile within 0.5 % above the exact one", () => {
    const latencies = Array.from({ length: 1_000 }, (_, index) => 0.01 * (index + 1)); // 0.01 … 10 ms
    const counts = histogramOf(latencies);
    for (const [percent, exact] of [
      [50, 5],
      [90, 9],
      [99, 9.9],
      [100, 10],
    ] as const) {
      const read = percentile(counts, percent);
      expect(read).toBeGreaterThanOrEqual(exact);
      expect(read).toBeLessThanOrEqual(exact * 1.005);
    }
  });

  it("puts latencies under 1 µs, negative ones included, in the first bucket", () => {
    expect(bucketOf(-3)).toBe(0);
    expect(bucketOf(0.0005)).toBe(0);
    expect(bucketLimit(0)).toBeCloseTo(0.001005, 9);
  });

  it("merges the histograms of several processes by adding their counts", () => {
    const first = histogramOf([1, 1, 2]);
    const second = histogramOf([2, 4]);
    const merged = merge([sparse(first), sparse(second)]);
    expect(sparse(merged)).toEqual([
      [bucketOf(1), 2],
      [bucketOf(2), 2],
      [bucketOf(4), 1],
    ]);
  });

  it("has no percentile without latencies", () => {
    expect(percentile(merge([]), 50)).toBeNaN();
  });
});
