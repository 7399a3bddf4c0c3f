// Latencies kept as counts in logarithmic buckets: each bucket is 0.5 % wider than the one before,
// from 1 µs, so 10 million deliveries take a few thousand counters, any percentile is read within
// 0.5 %, and the histograms of several processes merge by adding their counts.

const GROWTH = 1.005;
const LOG_GROWTH = Math.log(GROWTH);
/** Enough buckets for 1 µs to about 20 minutes. */
export const BUCKETS = 4_200;

/** The bucket of a latency in milliseconds (below 1 µs, negative included, falls in the first). */
export function bucketOf(milliseconds: number): number {
  const microseconds = milliseconds * 1_000;
  if (!(microseconds > 1)) return 0;
  return Math.min(BUCKETS - 1, Math.floor(Math.log(microseconds) / LOG_GROWTH));
}

/** The upper bound of a bucket, in milliseconds: what a percentile falling in it reports. */
export function bucketLimit(bucket: number): number {
  return GROWTH ** (bucket + 1) / 1_000;
}

/** The non-empty buckets as [bucket, count] pairs: small enough to send between processes. */
export function sparse(counts: Uint32Array): [number, number][] {
  const pairs: [number, number][] = [];
  for (let bucket = 0; bucket < counts.length; bucket++) {
    if (counts[bucket]! > 0) pairs.push([bucket, counts[bucket]!]);
  }
  return pairs;
}

/** Adds sparse histograms into one. */
export function merge(histograms: readonly [number, number][][]): Uint32Array {
  const counts = new Uint32Array(BUCKETS);
  for (const pairs of histograms) for (const [bucket, count] of pairs) counts[bucket]! += count;
  return counts;
}

/** The latency (ms) under which `percent` % of the counted ones fall, within 0.5 %; NaN if none. */
export function percentile(counts: Uint32Array, percent: number): number {
  let total = 0;
  for (const count of counts) total += count;
  if (total === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((percent / 100) * total));
  let seen = 0;
  for (let bucket = 0; bucket < counts.length; bucket++) {
    seen += counts[bucket]!;
    if (seen >= rank) return bucketLimit(bucket);
  }
  return bucketLimit(counts.length - 1);
}
