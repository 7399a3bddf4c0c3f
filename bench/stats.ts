// Statistics for the bench's reports.

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * A 95 % percentile-bootstrap interval of the median: the median of 2,000 resamples (with
 * replacement) of `values`, their 2.5th and 97.5th percentiles. The resampling is seeded, so the
 * same samples always print the same interval.
 */
export function medianInterval(values: number[]): [number, number] {
  if (values.length === 0) return [Number.NaN, Number.NaN];
  const random = seededRandom(0x5eed);
  const medians: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const resample = values.map(() => values[Math.floor(random() * values.length)] ?? Number.NaN);
    medians.push(median(resample));
  }
  medians.sort((a, b) => a - b);
  return [medians[49] ?? Number.NaN, medians[1949] ?? Number.NaN];
}

/** mulberry32: a small, fast generator of numbers in [0, 1); good enough for resampling. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
